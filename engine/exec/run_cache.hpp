// Kept kernel runs, consulted before a configuration is executed: a run read back stands for
// executing the kernel again. The entry layer asks through this interface; `--cache DIR`
// implements it on disk (batch/run_cache_dir.hpp), and the engine runs without one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/exec/kernel_run.hpp"
#include "engine/exec/launch_context.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::exec {

// A kept run: the run, with its output values in the store it was read into, and the line of
// the kernel's `.entry` in its PTX file.
struct CachedRun {
  KernelRun run;
  uint32_t entry_line = 0;
};

// Implementations must be thread-safe, and must never return a run they cannot vouch for (a
// damaged one is a miss).
class RunCache {
public:
  virtual ~RunCache() = default;
  // The key of a run of `config` under `options`; nullopt when the run cannot be cached.
  virtual std::optional<std::string> key_of(const launch::KernelConfig& config,
                                            const RunOptions& options) const = 0;
  // The run kept under `key`, read into `store`; nullopt on a miss.
  virtual std::optional<CachedRun> load(const std::string& key, symbolic::ExprStore& store) = 0;
  // Offers `run` (whose values live in `store`); the cache may decline to keep it.
  virtual void keep(const std::string& key, const KernelRun& run, uint32_t entry_line,
                    const symbolic::ExprStore& store) = 0;
};

} // namespace volta::exec
