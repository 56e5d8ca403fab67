// The part of `prove` and `check` after the flags are read: run the entries under the guards,
// show them, print the summary table, write the reports, and return the exit status.
#pragma once

#include <iostream>
#include <string>
#include <vector>

#include "engine/cli/batch_flags.hpp"
#include "engine/driver/batch.hpp"
#include "engine/driver/entry_cache.hpp"
#include "engine/driver/proof_cache_dir.hpp"
#include "engine/driver/report_json.hpp"
#include "engine/driver/run_cache.hpp"

namespace volta::cli {

struct RunRequest {
  driver::BatchOptions options;
  std::vector<const launch::ManifestEntry*> entries;
  driver::EntryRunner runner;
  driver::ReportInfo info;
  ReportPaths reports;
  bool single = false; // one entry given by flags: no summary table
  driver::DirectoryProofCache* cache = nullptr;
  driver::RunCache* runs = nullptr;          // with cache (--cache DIR)
  driver::EntryCache* entry_cache = nullptr; // with cache
  std::ostream* human = &std::cout;          // summary table; null: --quiet
};

int run_entries(RunRequest& request);

} // namespace volta::cli
