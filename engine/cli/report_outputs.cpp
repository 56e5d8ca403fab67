#include "engine/cli/report_outputs.hpp"

#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <unistd.h>

#include "engine/batch/atomic_file.hpp"
#include "engine/diagnostic_reporter.hpp"
#include "engine/report/junit_report.hpp"
#include "engine/report/sarif_report.hpp"

namespace volta::cli {

namespace {

bool write_file(const std::string& path, const std::string& text, const char* what) {
  if (batch::write_file_atomically(path, text))
    return true;
  DiagnosticReporter::standard().error_in(path, fmt::format("cannot write the {} file", what));
  return false;
}

// Invalid UTF-8 (from a PTX file's bytes in a message) is replaced, never a reason to fail.
std::string dump(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// Whether two paths name the same file: the same path once normalized, or (both existing) the
// same inode, as through a symbolic or hard link.
bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec))
    return true;
  const fs::path ca = fs::weakly_canonical(a, ec);
  if (ec)
    return false;
  const fs::path cb = fs::weakly_canonical(b, ec);
  return !ec && ca == cb;
}

} // namespace

std::string report_path_conflict(const ReportPaths& paths, const std::vector<std::string>& inputs) {
  const std::vector<std::pair<const char*, const std::string*>> outputs = {
      {"--report", &paths.json}, {"--junit", &paths.junit}, {"--sarif", &paths.sarif}};
  for (size_t i = 0; i < outputs.size(); ++i) {
    const auto& [flag, path] = outputs[i];
    if (path->empty() || *path == "-")
      continue;
    for (const auto& input : inputs) {
      if (!input.empty() && same_file(*path, input)) {
        return fmt::format("{} {}: this is an input of the run ({}); a report never overwrites "
                           "an input",
                           flag, *path, input);
      }
    }
    for (size_t j = 0; j < i; ++j) {
      const auto& [other_flag, other] = outputs[j];
      if (!other->empty() && *other != "-" && same_file(*path, *other))
        return fmt::format("{} and {} name the same file {}", other_flag, flag, *path);
    }
  }
  return "";
}

bool write_reports(const ReportPaths& paths, const nlohmann::json& report) {
  bool ok = true;
  if (paths.json == "-") {
    std::cout << dump(report);
    std::cout.flush();
    ok &= static_cast<bool>(std::cout);
  } else if (!paths.json.empty()) {
    ok &= write_file(paths.json, dump(report), "JSON report");
  }
  if (!paths.junit.empty())
    ok &= write_file(paths.junit, report::junit_xml(report), "JUnit report");
  if (!paths.sarif.empty())
    ok &= write_file(paths.sarif, dump(report::sarif_log(report)), "SARIF log");
  return ok;
}

} // namespace volta::cli
