#include "engine/cli/report_outputs.hpp"

#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <iostream>

#include "engine/driver/junit_report.hpp"
#include "engine/driver/sarif_report.hpp"

namespace volta::cli {

namespace {

bool write_file(const std::string& path, const std::string& text, const char* what) {
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      std::cerr << fmt::format("{}: error: cannot write the {} file\n", path, what);
      std::remove(temp.c_str());
      return false;
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::cerr << fmt::format("{}: error: cannot write the {} file\n", path, what);
    std::remove(temp.c_str());
    return false;
  }
  return true;
}

// Invalid UTF-8 (from a PTX file's bytes in a message) is replaced, never a reason to fail.
std::string dump(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace

bool write_reports(const ReportPaths& paths, const nlohmann::json& report) {
  bool ok = true;
  if (!paths.json.empty())
    ok &= write_file(paths.json, dump(report), "JSON report");
  if (!paths.junit.empty())
    ok &= write_file(paths.junit, driver::junit_xml(report), "JUnit report");
  if (!paths.sarif.empty())
    ok &= write_file(paths.sarif, dump(driver::sarif_log(report)), "SARIF log");
  return ok;
}

} // namespace volta::cli
