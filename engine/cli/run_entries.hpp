// The part of `prove` and `check` after the flags are read: run the entries under the guards,
// show them, print the summary table, write the reports, and return the exit status.
#pragma once

#include <iostream>
#include <string>
#include <vector>

#include "engine/batch/batch.hpp"
#include "engine/batch/entry_cache.hpp"
#include "engine/batch/proof_cache_dir.hpp"
#include "engine/batch/run_cache_dir.hpp"
#include "engine/cli/batch_flags.hpp"
#include "engine/report/report_json.hpp"

namespace volta::cli {

struct RunRequest {
  batch::BatchOptions options;
  std::vector<const launch::ManifestEntry*> entries;
  batch::EntryRunner runner;
  report::ReportInfo info;
  ReportPaths reports;
  bool single = false; // one entry given by flags: no summary table
  batch::DirectoryProofCache* cache = nullptr;
  batch::DirectoryRunCache* runs = nullptr; // with cache (--cache DIR)
  batch::EntryCache* entry_cache = nullptr; // with cache
  std::ostream* human = &std::cout;         // summary table; null: --quiet
};

int run_entries(RunRequest& request);

} // namespace volta::cli
