#include "engine/batch/entry_cache.hpp"

#include <chrono>

#include "engine/batch/result_archive.hpp"
#include "engine/batch/run_cache_dir.hpp"
#include "engine/content_hash.hpp"

namespace volta::batch {

namespace fs = std::filesystem;

Expected<std::unique_ptr<EntryCache>> EntryCache::open(const std::string& dir,
                                                       DiagnosticReporter* warnings) {
  std::unique_ptr<EntryCache> cache(new EntryCache(fs::path(dir) / "entries", warnings));
  if (auto problem = cache->folder_.create()) {
    return Unexpected{*problem};
  }
  return cache;
}

std::optional<std::string> EntryCache::key(const launch::ManifestEntry& entry,
                                           const exec::RunOptions& run,
                                           const std::string& options) {
  if (!entry.error.empty())
    return std::nullopt;
  symbolic::ByteWriter text;
  text.str("volta-eg entry-cache 8");
  text.str(tool_digest());
  text.u8(static_cast<uint8_t>(entry.kind));
  const bool race_check = entry.kind == launch::EntryKind::RaceCheck;
  for (const launch::KernelConfig* config :
       race_check ? std::vector{&entry.kernel} : std::vector{&entry.reference, &entry.optimized}) {
    auto run_key = DirectoryRunCache::key(*config, run);
    if (!run_key)
      return std::nullopt;
    text.str(*run_key);
    // The input ranges change no run, only the result's rounding bounds.
    for (const auto& a : config->arrays) {
      text.u8(a.range ? 1 : 0);
      if (a.range) {
        text.f64(a.range->first);
        text.f64(a.range->second);
      }
    }
  }
  text.u64(entry.check_arrays.size());
  for (const auto& name : entry.check_arrays)
    text.str(name);
  text.u8(entry.cross_check ? 1 : 0);
  text.u8(entry.benign_races ? (*entry.benign_races ? 1 : 2) : 0);       // the entry's race rule
  text.u8(entry.converged_waits ? (*entry.converged_waits ? 1 : 2) : 0); // its assumptions
  text.u8(entry.float_tolerance ? 1 : 0); // the entry's float tolerance (a result holds it)
  if (entry.float_tolerance) {
    text.f64(entry.float_tolerance->rel);
    text.f64(entry.float_tolerance->abs);
  }
  text.str(options);
  return cache_key(text.bytes());
}

bool EntryCache::keepable(const entry::EntryResult& r) {
  return !r.bad_input && !r.not_run && r.guard == entry::Guard::None &&
         r.verdict != Verdict::Unknown && r.verdict != Verdict::Error &&
         r.verdict != Verdict::Inconsistent && !r.races_cut_short;
}

entry::EntryResult EntryCache::answer(const launch::ManifestEntry& entry,
                                      const std::optional<std::string>& key,
                                      const std::function<entry::EntryResult()>& compute) {
  if (!key)
    return compute();
  const auto start = std::chrono::steady_clock::now();
  if (const auto body = folder_.read(*key)) {
    try {
      symbolic::ByteReader in(*body);
      entry::EntryResult r = read_entry_result(in);
      folder_.hit();
      r.index = entry.index;
      r.name = entry.name;
      r.expected = entry.expected;
      r.cached = true;
      for (auto& k : r.kernels)
        k.cached = true;
      r.original_seconds = r.seconds;
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      r.phases = {{"cache", r.seconds}};
      return r;
    } catch (const symbolic::ByteStreamError& e) {
      folder_.reject(*key, e.what());
    }
  }
  entry::EntryResult r = compute();
  if (keepable(r)) {
    symbolic::ByteWriter out;
    write_entry_result(out, r);
    folder_.write(*key, out.bytes());
  }
  return r;
}

EntryRunner with_entry_cache(EntryRunner inner, EntryCache& cache, exec::RunOptions run,
                             std::string options) {
  run.cancel = nullptr;
  return [inner = std::move(inner), &cache, run, options = std::move(options)](
             const launch::ManifestEntry& entry, std::atomic<bool>& cancel) {
    return cache.answer(entry, EntryCache::key(entry, run, options),
                        [&] { return inner(entry, cancel); });
  };
}

} // namespace volta::batch
