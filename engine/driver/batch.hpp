// Runs the selected entries of a manifest, in parallel (TBB, `jobs` workers), each entry
// isolated: an exception or a bad entry becomes an ERROR result, never the end of the batch.
// Results come back in manifest order whatever the schedule.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "engine/driver/entry_result.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::driver {

struct BatchOptions {
  int jobs = 1;
  std::optional<std::regex> filter;     // select entries whose name matches
  std::optional<std::pair<int, int>> shard;  // (index, count): deterministic subset
  std::ostream* progress = nullptr;     // plain lines, or a live line on a terminal
  bool terminal = false;
};

using EntryRunner = std::function<EntryResult(const launch::ManifestEntry&)>;

// The entries a batch runs, in manifest order.
std::vector<const launch::ManifestEntry*> select_entries(const launch::Manifest& manifest,
                                                         const BatchOptions& options);

std::vector<EntryResult> run_batch(const std::vector<const launch::ManifestEntry*>& entries,
                                   const EntryRunner& runner, const BatchOptions& options);

// One line per result: verdict, name, time, and the detail when it did not match.
void print_result_line(std::ostream& out, const EntryResult& r, bool color);
void print_summary(std::ostream& out, const std::vector<EntryResult>& results, bool color);

// 0 when every result matches, 2 when any entry was bad input, else 1.
int exit_status(const std::vector<EntryResult>& results);

}  // namespace volta::driver
