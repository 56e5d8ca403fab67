// Running the real volta-eg binary from tests: in the source tree (so that example paths are
// the ones the docs show) or in a scratch folder, with stdout, stderr and the exit status kept
// apart; plus manifests derived from the examples, and timing-free views of outputs.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace volta::cli_test {

struct ToolRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// A fresh folder for one test (removed at the end of the test program's run by the OS's tmp
// cleaning, not by us: a failing test leaves its files to look at).
std::filesystem::path scratch_dir(const std::string& test_name);

// Runs `volta-eg ARGS...` in `cwd` (default: the source tree), each argument quoted; the run is
// killed after `timeout_s` seconds (exit code 124).
ToolRun run_tool(const std::vector<std::string>& args, const std::filesystem::path& cwd = {},
                 int timeout_s = 300);

std::string source_dir();
std::string read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::string& text);
nlohmann::json read_json(const std::filesystem::path& path);

// examples/<name> (e.g. "manifest.json") with every `ptx` path made absolute, so that the copy
// can be written anywhere.
nlohmann::json example_manifest(const std::string& name);

// Output with every decimal number (times) replaced by "T" and the spaces before it collapsed,
// so that golden files do not depend on speed.
std::string without_times(const std::string& text);
// A report without what depends on time or the machine: `seconds`, `phases`, `wall_seconds`.
nlohmann::json without_timings(nlohmann::json report);

// Compares `actual` with tests/cli/golden/NAME; with VOLTA_UPDATE_GOLDEN=1 rewrites it instead.
// Returns an empty string when equal, else a description of the first difference.
std::string golden_diff(const std::string& name, const std::string& actual);

} // namespace volta::cli_test
