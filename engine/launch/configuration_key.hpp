// One unambiguous byte string for everything a kernel configuration gives a run: the entry, the
// launch dimensions, the CTAs run, every array, parameter (its manifest text and tensor maps
// included) and global. Two configurations that could make different runs never write the same
// bytes (every string carries its length). Both keys that stand for a run are written from it:
// the batch's shared runs (entry/batch_runs.hpp) and the run cache on disk
// (batch/run_cache_dir.hpp), so that a field added to KernelConfig cannot be left out of one.
#pragma once

#include <string>

#include "engine/launch/launch_config.hpp"

namespace volta::launch {

std::string configuration_key(const KernelConfig& config);

} // namespace volta::launch
