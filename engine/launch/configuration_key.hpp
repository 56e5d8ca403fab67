// One unambiguous byte string for everything a kernel configuration gives a run: the entry, the
// launch dimensions, the CTAs run, every array, parameter (its manifest text and tensor maps
// included) and global. Two configurations that could make different runs never write the same
// bytes (every string carries its length). Both keys that stand for a run are written from it:
// the batch's shared runs (entry/batch_runs.hpp) and the run cache on disk
// (batch/run_cache_dir.hpp), so that a field added to KernelConfig cannot be left out of one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/launch/launch_config.hpp"

namespace volta::launch {

// Every field with its length, so that no two different sequences of fields write the same
// bytes.
class KeyWriter {
public:
  void str(std::string_view s) {
    num(s.size());
    bytes_.append(s);
  }
  void num(uint64_t v) { bytes_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  std::string take() { return std::move(bytes_); }

private:
  std::string bytes_;
};

std::string configuration_key(const KernelConfig& config);

} // namespace volta::launch
