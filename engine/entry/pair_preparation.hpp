// Preparing an equivalence entry for the element prover: both kernels loaded and their
// configurations checked before either runs (a refusal in one is reported at once), both
// executed into one expression DAG, their outputs checked for values no verdict may rest on,
// and the element pairs of every compared array listed, with what an element written by one
// kernel only is compared with.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "engine/entry/entry_result.hpp"
#include "engine/exec/kernel_cache.hpp"
#include "engine/exec/run_cache.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/prove/decide_elements.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::entry {

class BatchRuns; // entry/batch_runs.hpp

struct PreparedPair {
  // Both kernels' values, in one store (owned here: the element prover's proofs by cases add
  // nodes to it).
  std::unique_ptr<symbolic::ExprStore> store = std::make_unique<symbolic::ExprStore>();
  std::optional<exec::KernelRun> ref_run, opt_run;
  std::vector<prove::ElementJob> jobs;
  size_t one_sided = 0; // jobs of elements one kernel writes, compared with initial contents
};

// Loads both kernels (in parallel, into `kernels`) and checks both configurations before either
// runs, so that a refusal in one is reported at once; on a problem fills `result` (reference
// first) and returns false.
bool preflight_pair(const launch::ManifestEntry& entry, exec::KernelCache& kernels,
                    EntryResult& result);

// With both runs in `pair`: checks their outputs for values no verdict may rest on and lists
// the element pairs of every compared array. Returns true, or false with `result` filled as
// prepare_pair() does.
bool pair_outputs(const launch::ManifestEntry& entry, PreparedPair& pair, EntryResult& result);

// The arrays an entry compares: its check_arrays, else the reference's output arrays.
std::vector<std::string> compared_arrays(const launch::ManifestEntry& entry);

// Fills `pair` and returns true; or, on bad input, a safety failure, or an element written by
// one kernel that the other leaves undefined, fills `result` (verdict, detail, counterexample)
// and returns false. `runs` (may be null) holds kept kernel runs; `batch` (may be null) the
// runs this entry shares with other entries of its batch (entry/batch_runs.hpp). A kernel and
// configuration that are the same on both sides (same PTX bytes, same run key) execute once
// when `one_run` allows it: the optimized kernel's run is the reference's (docs/semantics.md,
// "One run for several uses").
bool prepare_pair(const launch::ManifestEntry& entry, exec::KernelCache& kernels,
                  const exec::RunOptions& run, exec::RunCache* runs, PreparedPair& pair,
                  EntryResult& result, BatchRuns* batch = nullptr, bool one_run = false);

} // namespace volta::entry
