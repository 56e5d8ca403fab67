// The JSON report of a batch (schema in docs/report-schema.md). The report is also the model
// the other views are made from: the summary table, the JUnit and SARIF files, and `merge`
// (which recomputes the summary of combined shard reports with the same code).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/entry/entry_result.hpp"

namespace volta::report {

inline constexpr int kReportSchemaVersion = 1;

// What the report says about the run as a whole.
struct ReportInfo {
  std::string command;                        // "prove" | "check"
  std::string manifest;                       // the manifest path as given ("" for one pair)
  std::optional<std::string> manifest_digest; // content hash of the manifest file
  // Content hash of the manifest and of every PTX file it names (a shard report of an older
  // run, after a kernel changed, is refused by `merge`).
  std::optional<std::string> inputs_digest;
  std::optional<std::string> filter;                 // --filter
  std::optional<std::pair<int, int>> shard;          // --shard I/N
  nlohmann::json options = nlohmann::json::object(); // the guards and prover settings used
  double wall_seconds = 0;
  // The signal that interrupted the batch ("SIGINT", "SIGTERM"); empty: it ran to the end.
  std::string interrupted_by;
};

nlohmann::json to_json(const exec::Site& site);
nlohmann::json to_json(const exec::Failure& failure);
nlohmann::json to_json(const SourcePoint& point);
nlohmann::json to_json(const DifferenceLocation& location);
nlohmann::json to_json(const CrossCheck& check);
nlohmann::json to_json(const entry::EntryResult& result);
nlohmann::json report_json(const std::vector<entry::EntryResult>& results, const ReportInfo& info);

// The `summary` object of a report from its `results` array.
nlohmann::json summarize(const nlohmann::json& results, double wall_seconds);
// The exit status a report stands for: 2 when an entry was bad input, 1 when an entry's verdict
// is not the expected one, else 0.
int exit_status(const nlohmann::json& results);

} // namespace volta::report
