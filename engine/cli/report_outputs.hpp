// Writing a report in the formats asked for: JSON (--report), JUnit XML (--junit) and SARIF
// (--sarif), all made from the JSON report. Each file is written to FILE.tmp and renamed, so
// that CI never reads half a report.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace volta::cli {

struct ReportPaths {
  std::string json;
  std::string junit;
  std::string sarif;
  bool any() const { return !json.empty() || !junit.empty() || !sarif.empty(); }
};

// Empty, or what is wrong when a report would overwrite an input (the manifest, a PTX file: a
// typo in a CI script must not destroy the sources) or another report of the same run.
std::string report_path_conflict(const ReportPaths& paths, const std::vector<std::string>& inputs);

// False (with a message on stderr) when a file cannot be written.
bool write_reports(const ReportPaths& paths, const nlohmann::json& report);

} // namespace volta::cli
