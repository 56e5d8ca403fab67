// Runs the selected entries of a manifest, in parallel (TBB, `jobs` workers), each entry
// isolated: an exception or a bad entry becomes an ERROR result, a resource guard an UNKNOWN
// result with its reason, never the end of the batch. Results come back in manifest order
// whatever the schedule.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "engine/entry/entry_result.hpp"
#include "engine/expected.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::batch {

struct BatchOptions {
  int jobs = 1;
  std::optional<std::regex> filter;         // select entries whose name matches
  std::optional<std::pair<int, int>> shard; // (index, count): deterministic subset
  std::ostream* progress = nullptr;         // result lines (and a live line on a terminal)
  bool terminal = false;                    // progress is a terminal: live line
  // Where a heartbeat line goes every few seconds while an entry runs (stderr that is not a
  // terminal); null: none.
  std::ostream* heartbeat = nullptr;
  bool color = false;                       // ANSI colors in the result lines
  double timeout_seconds = 0;               // per entry; 0: none
  uint64_t max_memory_bytes = 0;            // resident memory of the process; 0: none
  std::function<uint64_t()> resident_bytes; // memory probe (tests); empty: /proc/self/statm
  // Nonzero (a signal number) once the batch must stop: no entry starts any more, the running
  // ones are cancelled, and both end as not run. Null: not interruptible.
  const std::atomic<int>* interrupt = nullptr;
};

// Runs one entry. `cancel` is set (by the watchdog) when the entry must stop: the runner passes
// it to the engine, which polls it and ends the entry UNKNOWN.
using EntryRunner =
    std::function<entry::EntryResult(const launch::ManifestEntry&, std::atomic<bool>& cancel)>;

// The entries a batch runs, in manifest order: those the filter selects, then every N-th of
// them for shard (I, N) (by position among the selected ones, so the shards of one manifest
// and filter are disjoint and cover it).
std::vector<const launch::ManifestEntry*> select_entries(const launch::Manifest& manifest,
                                                         const BatchOptions& options);

std::vector<entry::EntryResult> run_batch(const std::vector<const launch::ManifestEntry*>& entries,
                                          const EntryRunner& runner, const BatchOptions& options);

// "shard I/N" parsed and validated (0 <= I < N), or why it is not one.
Expected<std::pair<int, int>> parse_shard(const std::string& text);

} // namespace volta::batch
