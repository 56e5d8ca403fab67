// An equivalence entry, top-down: prepare the pair (both kernels executed into one DAG, the
// element pairs listed: entry/pair_preparation.hpp), decide every element
// (prove/decide_elements.hpp), check that the optimized kernel is defined wherever the
// reference is (prove/domain_conditions.hpp), and turn it all into one EntryResult. The pair is
// EQUIVALENT only when every element is and the domains hold.
#pragma once

#include <atomic>
#include <functional>

#include "engine/cross_check.hpp"
#include "engine/entry/entry_result.hpp"
#include "engine/exec/kernel_cache.hpp"
#include "engine/exec/run_cache.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/prove/domain_conditions.hpp"
#include "engine/prove/element_prover.hpp"
#include "engine/prove/proof_cache.hpp"

namespace volta::entry {

class BatchRuns; // entry/batch_runs.hpp

// How the tool runs the emulator cross-check of an EQUIVALENT (session/entry_runner.cpp installs
// ProveOptions::cross_check from these; docs/cli.md, `--no-cross-check`).
struct CrossCheckSettings {
  bool enabled = true;
  uint32_t inputs = 3; // input sets (emulate/edge_inputs.hpp), from the first
  // What the cross-check of an entry may cost, decided before it starts: `budget_share` of the
  // proof's time, at least `min_budget_seconds` (a kernel of up to about a hundred million
  // thread-instructions is checked whatever its proof cost: the corpus's largest single-CTA
  // launches, Conv2D and the 64x64x32 TileLang GEMM; tiny ones on every set). A plan whose
  // predicted cost does not fit is not started; 0: no budget.
  double budget_share = 0.05;
  double min_budget_seconds = 1.0;
  // The input sets after the first (the specials set, the one most likely to hit an edge) run
  // only within `budget_share` of the proof's time, at least this.
  double min_further_sets_seconds = 0.1;
};

// The element prover's options (term budget, rules, fallback, cancel flag) and the entry's.
struct ProveOptions : prove::ElementOptions {
  exec::RunOptions run;
  double timeout_seconds = 0; // 0: none (whole entry, execution included)
  bool reuse_templates = true;
  bool stop_at_first_difference = true;
  // A NOT_EQUIVALENT element is located in the sources (difference_site.hpp): the pair runs a
  // second time, recording where values are made.
  bool locate_differences = true;
  // Stop at the first element left UNKNOWN (--stop-at-first-unknown).
  bool stop_at_first_unknown = false;
  prove::DomainProver domain_prover; // may be empty
  // Runs a counterexample concretely (the bit-exact emulator, installed by the tool: it lives
  // above this layer) and fills what each kernel stores there; may be empty.
  std::function<void(const launch::ManifestEntry&, Counterexample&, const WitnessSearchLimits&)>
      execute_counterexample;
  // The emulator cross-check of an EQUIVALENT (engine/cross_check.hpp), installed by the tool
  // like the counterexample run from `cross_check_settings`; empty: off. An entry with
  // `"cross_check": false` skips it too.
  CrossCheckSettings cross_check_settings;
  // `--float-tolerance`: the float divergence every EQUIVALENT is held to, unless its entry
  // gives its own `"float_tolerance"` (engine/cross_check.hpp); empty: none.
  std::optional<FloatTolerance> float_tolerance;
  // `--input-range LO,HI`: the range of every input array (in, inout) whose kernel block gives
  // none, for the bound on the rounding error (entry/rounding_bounds.hpp); empty: none.
  std::optional<std::pair<double, double>> input_range;
  std::function<CrossCheck(const launch::ManifestEntry&, const exec::Program& reference,
                           const exec::Program& optimized, const CrossCheckRequest&)>
      cross_check;
  prove::ProofCache* cache = nullptr; // may be null
  exec::RunCache* runs = nullptr;     // kept kernel runs (`--cache DIR`); may be null
  // The runs that several entries of this batch execute, each executed once; may be null.
  BatchRuns* batch_runs = nullptr;
  // A kernel with the same PTX bytes and run key on both sides of a pair executes once
  // (`--no-shared-runs`: each side and each entry executes its own, as a baseline).
  bool share_runs = true;
  // Also check the converse refinement: the reference defined wherever the optimized kernel is
  // (for two peers rather than a kernel and its specification).
  bool mutual = false;
  // Over a whole grid, run and prove both kernels a group of CTAs at a time, dropping each
  // group's values once proved (entry/streamed_entry.hpp), where both kernels allow it.
  bool stream = true;
  // The fewest CTAs of the smaller grid a group holds; 0: as many as keep the cores busy.
  uint32_t stream_min_ctas = 0;
  // A streamed entry that a group cannot conclude (a safety finding, a difference, a domain
  // condition that needs the whole grid's assumptions) is run again over the whole grid only
  // when that run's expression store, about the groups' count times the largest group's, fits
  // these bytes; else the group answers (its finding, or UNKNOWN with its reason). 0: half of
  // the machine's physical memory.
  size_t stream_rerun_bytes = 0;
};

EntryResult prove_equivalence_entry(const launch::ManifestEntry& entry, exec::KernelCache& kernels,
                                    const ProveOptions& options);

} // namespace volta::entry
