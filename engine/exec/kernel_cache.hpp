// Loaded kernels by (PTX path, entry), so that a batch parses and lowers each kernel once.
// Entries running in parallel load different kernels in parallel; an entry that needs a kernel
// another entry is loading waits for that load instead of repeating it. A load that throws
// (out of memory) is forgotten, so that a later entry tries again.
#pragma once

#include <future>
#include <map>
#include <mutex>
#include <string>

#include "engine/exec/run_kernel.hpp"

namespace volta::exec {

class KernelCache {
public:
  exec::LoadResult load(const std::string& ptx_path, const std::string& entry) {
    const auto key = std::make_pair(ptx_path, entry);
    std::promise<exec::LoadResult> promise;
    std::shared_future<exec::LoadResult> result;
    bool mine = false;
    {
      std::lock_guard guard(mutex_);
      auto it = loaded_.find(key);
      if (it == loaded_.end()) {
        result = promise.get_future().share();
        loaded_.emplace(key, result);
        mine = true;
      } else {
        result = it->second;
      }
    }
    if (mine) {
      try {
        promise.set_value(exec::load_kernel(ptx_path, entry));
      } catch (...) {
        {
          std::lock_guard guard(mutex_);
          loaded_.erase(key);
        }
        promise.set_exception(std::current_exception());
      }
    }
    return result.get();
  }

private:
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, std::shared_future<exec::LoadResult>> loaded_;
};

} // namespace volta::exec
