// The emulator cross-check of an EQUIVALENT (docs/semantics.md, "The emulator cross-check"):
// both kernels of an entry run on the bit-exact emulator on the edge input sets
// (emulate/edge_inputs.hpp), and their stores are compared (emulate/output_comparison.hpp).
//
// Budgeted up front (docs/semantics.md, "Cost"): before anything runs, each set's cost is
// predicted from the symbolic runs' thread-instruction counts and the emulator's pace (learned
// from the runs made in this process): its longer kernel run, the two running in parallel. The
// whole launch runs when it fits `budget_seconds`; else, where the launch has several CTAs, a
// sample — the first and the last CTA of each kernel — on the full inputs, its stores compared only
// where both samples wrote; else nothing (skipped, with the prediction). A sample is refused where
// it may not be the launch: global atomics in either kernel (static), or a sampled CTA that reads
// writable global memory it did not write (seen in the run: another CTA may write it). No further
// set starts unless its predicted cost still fits. Safety nets for a wrong prediction: each kernel
// run may execute at most `instruction_factor` times the thread-instructions predicted for it, and
// every run stops at `deadline_seconds` (a watcher thread sets the emulator's cancel flag). A
// kernel the emulator refuses, or a run past its budget or time, skips the cross-check (with the
// reason) or ends it after the sets already compared — never a failure. The two kernels of an input
// run in parallel.
#pragma once

#include <functional>

#include "engine/cross_check.hpp"
#include "engine/emulate/output_comparison.hpp"
#include "engine/exec/program.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::emulate {

struct CrossCheckOptions {
  uint32_t inputs = 3; // input sets to run, from set 0 (at most kEdgeInputSets)
  // What the cross-check may cost: nothing starts whose predicted cost does not fit (0: no
  // budget, the whole launch of every set runs).
  double budget_seconds = 0;
  // What the whole cross-check may cost once a set after the first would start (0: the same as
  // budget_seconds): the first set, the specials, gets the larger budget.
  double further_sets_budget_seconds = 0;
  double deadline_seconds = 0; // every run stops here (0: none); a set cut short is not compared
  bool sample_ctas = true;     // a launch over the budget may run a sample of its CTAs
  // The emulator's pace before any kernel ran in this process (thread-instructions a second of
  // one kernel's run; the two kernels of a set run in parallel, so a set costs its longer run;
  // with its warp loops the release build runs 60-170 million a second on the corpus's GEMM,
  // convolution and TileLang kernels on a 2-core VM, docs/BENCHMARKS.md).
  double prior_rate = 40e6;
  double instruction_factor = 2;         // a run's budget: this times its symbolic run's count...
  uint64_t min_instructions = 1'000'000; // ...and at least this
  bool reuse_runs = true; // take and keep runs in the process-wide memo (emulate/run_memo.hpp)
  // Sees each input's runs of both kernels after they are compared (a divergence report, the
  // tests); may be empty.
  std::function<void(const EmulatedPair&)> observe;
};

// The pace the next prediction uses (learned, or the prior).
double emulator_rate_now();

CrossCheck cross_check(const launch::ManifestEntry& entry, const exec::Program& reference,
                       const exec::Program& optimized, const CrossCheckRequest& request,
                       const CrossCheckOptions& options = {});

} // namespace volta::emulate
