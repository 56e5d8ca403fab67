// `--cache DIR`: whole entry results, beside the execution and proof caches. An entry whose
// kernels (PTX bytes and launch configurations, as the execution cache keys them), compared
// arrays, prover options and volta-eg build are those of an earlier run gets that run's
// result without executing or proving anything. Only results that say something about the
// kernels are kept: a verdict other than UNKNOWN or ERROR, not stopped by a guard, not bad
// input, not interrupted. Files are DIR/entries/<2 hex digits>/<key> (batch/cache_folder.hpp).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/batch/batch.hpp"
#include "engine/batch/cache_folder.hpp"
#include "engine/entry/entry_result.hpp"
#include "engine/exec/launch_context.hpp"
#include "engine/expected.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::batch {

class EntryCache {
public:
  static Expected<std::unique_ptr<EntryCache>> open(const std::string& dir,
                                                    DiagnosticReporter* warnings);

  // `options` describes everything else the result depends on (the prover's options, the rule
  // files' contents), as the caller knows them; nullopt when a PTX file cannot be read or the
  // entry is bad input (never cached).
  static std::optional<std::string> key(const launch::ManifestEntry& entry,
                                        const exec::RunOptions& run, const std::string& options);

  // The kept result of `entry` under `key`, or compute() (kept when it says something).
  entry::EntryResult answer(const launch::ManifestEntry& entry,
                            const std::optional<std::string>& key,
                            const std::function<entry::EntryResult()>& compute);

  static bool keepable(const entry::EntryResult& result);

  uint64_t hits() const { return folder_.hits(); }
  uint64_t misses() const { return folder_.misses(); }
  uint64_t stored() const { return folder_.stored(); }
  uint64_t ignored() const { return folder_.ignored(); }
  std::filesystem::path path_of(const std::string& key) const { return folder_.path_of(key); }

private:
  EntryCache(std::filesystem::path dir, DiagnosticReporter* warnings)
      : folder_(std::move(dir), "volta-eg entry-cache 1", "entry-cache", "the entry is run again",
                warnings) {}

  CacheFolder folder_;
};

// `inner` answering from `cache` first (the run options and options text as for key()).
EntryRunner with_entry_cache(EntryRunner inner, EntryCache& cache, exec::RunOptions run,
                             std::string options);

} // namespace volta::batch
