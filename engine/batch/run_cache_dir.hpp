// `--cache DIR`: the execution cache, beside the proof cache. In an optimization loop the
// reference stays and the candidates change; each kernel run (its output DAGs, the partial
// operations and data-dependent branches they rest on, its safety finding, its statistics) is
// kept under a key that hashes everything the run depends on: the bytes of the PTX file, the
// entry, the whole launch configuration (arrays with their bases, lengths, kinds and types,
// every parameter, grid, block, CTA mode, dynamic shared memory, globals), the run options
// that change its result, and the digest of the volta-eg build (tool_digest), so that
// another build never reads it. A rerun with one new candidate executes only that candidate.
//
// Files are DIR/runs/<first 2 hex digits>/<32 hex digits> (batch/cache_folder.hpp). Runs
// stopped by a guard (time, memory, instruction budget, interrupt) or by bad input are not
// kept: they say nothing about the kernel; nor are runs whose output DAGs are so large for
// their execution time that reading them back would not be several times faster (a naive
// GEMM). Thread-safe.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "engine/batch/cache_folder.hpp"
#include "engine/exec/run_cache.hpp"
#include "engine/expected.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::batch {

using exec::CachedRun;

class DirectoryRunCache : public exec::RunCache {
public:
  // Creates DIR/runs when needed. `warnings` receives one line per ignored file (may be null).
  static Expected<std::unique_ptr<DirectoryRunCache>> open(const std::string& dir,
                                                           DiagnosticReporter* warnings);

  // 32 hex digits; nullopt when the PTX file cannot be read (the run is then not cached).
  static std::optional<std::string> key(const launch::KernelConfig& config,
                                        const exec::RunOptions& options);

  std::optional<std::string> key_of(const launch::KernelConfig& config,
                                    const exec::RunOptions& options) const override {
    return key(config, options);
  }
  // The run kept under `key`, read into `store`; nullopt on a miss.
  std::optional<CachedRun> load(const std::string& key, symbolic::ExprStore& store) override;
  // Keeps `run` (whose values live in `store`) unless a guard or bad input stopped it or it is
  // too large for its execution time.
  void keep(const std::string& key, const exec::KernelRun& run, uint32_t entry_line,
            const symbolic::ExprStore& store) override;

  // Whether a run can be kept: it ended by itself (finished, or stopped by a safety finding).
  static bool keepable(const exec::KernelRun& run);

  uint64_t hits() const { return folder_.hits(); }
  uint64_t misses() const { return folder_.misses(); }
  uint64_t stored() const { return folder_.stored(); }
  uint64_t ignored() const { return folder_.ignored(); }
  // Runs not kept because reading them back would not be much faster than executing them.
  uint64_t too_large() const { return too_large_.load(); }

  std::filesystem::path path_of(const std::string& key) const { return folder_.path_of(key); }
  // The bytes of a cache file (exposed for tests).
  std::string file_bytes(const std::string& key, const exec::KernelRun& run, uint32_t entry_line,
                         const symbolic::ExprStore& store) const;

private:
  DirectoryRunCache(std::filesystem::path dir, DiagnosticReporter* warnings)
      : folder_(std::move(dir), "volta-eg run-cache 2", "execution-cache",
                "the kernel is executed again", warnings) {}

  CacheFolder folder_;
  std::atomic<uint64_t> too_large_{0};
};

} // namespace volta::batch
