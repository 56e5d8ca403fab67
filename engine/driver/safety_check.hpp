// A race_check entry: execute one kernel and report RACE_FREE or the first safety failure.
#pragma once

#include "engine/driver/entry_result.hpp"
#include "engine/driver/kernel_cache.hpp"
#include "engine/driver/run_cache.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::driver {

struct CheckOptions {
  exec::RunOptions run;
  RunCache* runs = nullptr; // may be null
};

EntryResult check_kernel_entry(const launch::ManifestEntry& entry, KernelCache& cache,
                               const CheckOptions& options);

// Loads and runs one kernel configuration, or reads the run from `runs` (may be null) when an
// earlier one was kept there; fills `result` with a failure when there is one and returns the
// run (nullopt when loading failed: bad input).
std::optional<exec::KernelRun> execute_config(const launch::KernelConfig& config,
                                              const std::string& role, KernelCache& cache,
                                              symbolic::ExprStore& store,
                                              const exec::RunOptions& options, EntryResult& result,
                                              RunCache* runs = nullptr);

// The first output element whose value carries an uninitialized value (and, when
// `values_matter`, a schedule-dependent atomic result or an unresolved bit-level operation).
std::optional<exec::Failure> output_failure(const exec::KernelRun& run,
                                            const symbolic::ExprStore& store, bool values_matter);

} // namespace volta::driver
