// A race_check entry: execute one kernel and report RACE_FREE or the first safety failure.
#pragma once

#include <memory>
#include <optional>

#include "engine/entry/entry_result.hpp"
#include "engine/exec/kernel_cache.hpp"
#include "engine/exec/run_cache.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::entry {

struct CheckOptions {
  exec::RunOptions run;
  exec::RunCache* runs = nullptr; // may be null
  // With all CTAs, check the grid a group of CTAs at a time, each group's expressions dropped
  // once its outputs are checked (docs/semantics.md, "Streamed proofs over a whole grid"): only
  // RACE_FREE comes from the groups, anything else from a run of the whole grid.
  bool stream = true;
};

// The race check of one kernel configuration, with its run and the store the run's values live
// in (`volta-eg check --print-outputs` shows them). `run` is nullopt when the kernel did not
// load (bad input: `result` says why).
struct RaceCheck {
  EntryResult result;
  std::optional<exec::KernelRun> run;
  std::unique_ptr<symbolic::ExprStore> store = std::make_unique<symbolic::ExprStore>();
};
RaceCheck check_race(const launch::KernelConfig& config, exec::KernelCache& cache,
                     const CheckOptions& options);

EntryResult check_race_entry(const launch::ManifestEntry& entry, exec::KernelCache& cache,
                             const CheckOptions& options);

} // namespace volta::entry
