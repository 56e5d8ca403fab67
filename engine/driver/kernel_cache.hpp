// Loaded kernels by (PTX path, entry), so that a batch parses and lowers each kernel once.
#pragma once

#include "engine/exec/run_kernel.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace volta::driver {

class KernelCache {
public:
  exec::LoadResult load(const std::string& ptx_path, const std::string& entry) {
    std::lock_guard guard(mutex_);
    auto key = std::make_pair(ptx_path, entry);
    auto it = loaded_.find(key);
    if (it != loaded_.end())
      return it->second;
    auto result = exec::load_kernel(ptx_path, entry);
    loaded_.emplace(key, result);
    return result;
  }

private:
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, exec::LoadResult> loaded_;
};

} // namespace volta::driver
