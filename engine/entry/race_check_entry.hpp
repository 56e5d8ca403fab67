// A race_check entry: execute one kernel and report RACE_FREE or the first safety failure.
#pragma once

#include "engine/entry/entry_result.hpp"
#include "engine/exec/kernel_cache.hpp"
#include "engine/exec/run_cache.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::entry {

struct CheckOptions {
  exec::RunOptions run;
  exec::RunCache* runs = nullptr; // may be null
};

EntryResult check_race_entry(const launch::ManifestEntry& entry, exec::KernelCache& cache,
                             const CheckOptions& options);

} // namespace volta::entry
