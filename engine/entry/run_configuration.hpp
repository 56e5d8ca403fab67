// Running one kernel configuration for an entry: loading it (through the kernel cache),
// executing it or reading a kept run, and recording the run in the entry's result; and the
// check of its outputs for values no verdict may rest on.
#pragma once

#include <optional>
#include <string>

#include "engine/entry/entry_result.hpp"
#include "engine/exec/kernel_cache.hpp"
#include "engine/exec/run_cache.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::entry {

// Loads and runs one kernel configuration, or reads the run from `runs` (may be null) when an
// earlier one was kept there; fills `result` with a failure when there is one and returns the
// run (nullopt when loading failed: bad input).
std::optional<exec::KernelRun> execute_config(const launch::KernelConfig& config,
                                              const std::string& role, exec::KernelCache& cache,
                                              symbolic::ExprStore& store,
                                              const exec::RunOptions& options, EntryResult& result,
                                              exec::RunCache* runs = nullptr);

// Records in `result` a run this entry did not execute: the run of the same kernel and
// configuration that `reused_from` executed (KernelSummary::reused_from), taken in `seconds`.
void record_reused_run(const exec::KernelRun& run, const launch::KernelConfig& config,
                       const std::string& role, uint32_t entry_line, double seconds,
                       const std::string& reused_from, EntryResult& result);

// A run's failure (and its races) as the entry's result: verdict, detail, failure and the kernel
// (`role`) it happened in; nothing when the run has no failure.
void record_failure(const exec::KernelRun& run, const std::string& role, EntryResult& result);

// How a report names a kernel run: its role, PTX file, entry and the line of `.entry` in
// `kernel` (0 when it is not there); statistics and time are the caller's to add.
KernelSummary kernel_summary(const launch::KernelConfig& config, const std::string& role,
                             const exec::LoadedKernel& kernel);

// The first output element whose value carries an uninitialized value (and, when
// `values_matter`, a schedule-dependent atomic result or an unresolved bit-level operation).
std::optional<exec::Failure> output_failure(const exec::KernelRun& run,
                                            const symbolic::ExprStore& store, bool values_matter);

} // namespace volta::entry
