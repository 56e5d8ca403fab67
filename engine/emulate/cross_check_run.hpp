// The emulator cross-check of an EQUIVALENT (docs/semantics.md, "The emulator cross-check"):
// both kernels of an entry run on the bit-exact emulator on the edge input sets
// (emulate/edge_inputs.hpp), and their stores are compared (emulate/output_comparison.hpp).
//
// Bounded: each kernel run may execute at most `instruction_factor` times the thread-
// instructions its symbolic run executed (the same program on the same schedule: the emulator
// runs one side of a merged branch where the symbolic run ran both), no further input set starts
// once `max_seconds` went by, and every run stops at `deadline_seconds` (a watcher thread sets
// the emulator's cancel flag). A kernel the emulator refuses, or a run past its budget or time,
// skips the cross-check (with the reason) or ends it after the sets already compared — never a
// failure. The two kernels of an input run in parallel where their memory is small.
#pragma once

#include <functional>

#include "engine/cross_check.hpp"
#include "engine/emulate/output_comparison.hpp"
#include "engine/exec/program.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::emulate {

struct CrossCheckOptions {
  uint32_t inputs = 3;           // input sets to run, from set 0 (at most kEdgeInputSets)
  double max_seconds = 0;        // no input set starts after this (0: no limit); set 0 always runs
  double deadline_seconds = 0;   // every run stops here (0: none); a set cut short is not compared
  double instruction_factor = 2; // a run's budget: this times its symbolic run's count...
  uint64_t min_instructions = 1'000'000; // ...and at least this
  bool reuse_runs = true; // take and keep runs in the process-wide memo (emulate/run_memo.hpp)
  // Sees each input's runs of both kernels after they are compared (a divergence report, the
  // tests); may be empty.
  std::function<void(const EmulatedPair&)> observe;
};

CrossCheck cross_check(const launch::ManifestEntry& entry, const exec::Program& reference,
                       const exec::Program& optimized, const CrossCheckRequest& request,
                       const CrossCheckOptions& options = {});

} // namespace volta::emulate
