// `volta-eg merge`: combines the reports of the shards of one batch into the report the whole
// batch would have written: results back in manifest order (by `index`), summary recomputed
// (wall time: the longest shard's, as shards run side by side). Refuses reports of different
// manifests (content digest), commands or filters, different shard counts, a shard given
// twice, an entry present twice, and (unless `allow_partial`) missing shards.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/expected.hpp"

namespace volta::report {

struct LoadedReport {
  std::string path;
  nlohmann::json report;
};

// Reads and checks one report file, or says why it cannot be merged, located ("a.json:3:7:
// error: ...").
Expected<LoadedReport> load_report(const std::string& path);

struct MergeOutcome {
  std::optional<nlohmann::json> report;
  std::vector<std::string> errors;   // each a full "file: error: ..." line
  std::vector<std::string> warnings; // each a full "file: warning: ..." line
};

MergeOutcome merge_reports(const std::vector<LoadedReport>& inputs, bool allow_partial);

} // namespace volta::report
