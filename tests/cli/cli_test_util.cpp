#include "cli_test_util.hpp"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace volta::cli_test {

namespace fs = std::filesystem;

namespace {

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

fs::path scratch_root() {
  return fs::temp_directory_path() / ("volta-cli-" + std::to_string(::getpid()));
}

// Scratch folders stay after a failure (to look at) and go after a clean run.
class ScratchCleanup : public ::testing::Environment {
public:
  void TearDown() override {
    if (::testing::UnitTest::GetInstance()->Passed()) {
      std::error_code ec;
      fs::remove_all(scratch_root(), ec);
    }
  }
};

[[maybe_unused]] ::testing::Environment* const cleanup =
    ::testing::AddGlobalTestEnvironment(new ScratchCleanup);

} // namespace

std::string source_dir() {
  return VOLTA_SOURCE_DIR;
}

fs::path scratch_dir(const std::string& test_name) {
  const fs::path dir = scratch_root() / test_name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

nlohmann::json read_json(const fs::path& path) {
  return nlohmann::json::parse(read_file(path));
}

ToolRun run_tool(const std::vector<std::string>& args, const fs::path& cwd, int timeout_s) {
  static int counter = 0;
  const fs::path io = scratch_root() / "io";
  fs::create_directories(io);
  const std::string tag = std::to_string(counter++);
  const fs::path out = io / ("out" + tag), err = io / ("err" + tag);
  std::string cmd = "cd " + quote(cwd.empty() ? source_dir() : cwd.string()) + " && timeout -k 5 " +
                    std::to_string(timeout_s) + " " + quote(VOLTA_EG_BINARY);
  for (const auto& a : args) {
    cmd += ' ';
    cmd += quote(a);
  }
  cmd += " </dev/null >" + quote(out.string()) + " 2>" + quote(err.string());
  const int status = std::system(cmd.c_str());
  ToolRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

nlohmann::json example_manifest(const std::string& name) {
  const fs::path path = fs::path(source_dir()) / "examples" / name;
  nlohmann::json m = read_json(path);
  for (auto& e : m["benchmarks"]) {
    for (const char* role : {"reference", "optimized", "kernel"}) {
      if (e.contains(role))
        e[role]["ptx"] = (path.parent_path() / e[role]["ptx"].get<std::string>()).string();
    }
  }
  return m;
}

std::string without_times(const std::string& text) {
  static const std::regex number(R"( *[0-9]+\.[0-9]+)");
  return std::regex_replace(text, number, " T");
}

nlohmann::json without_timings(nlohmann::json j) {
  if (j.is_object()) {
    for (const char* key : {"seconds", "phases", "wall_seconds"})
      j.erase(key);
    for (auto& [k, v] : j.items())
      v = without_timings(v);
  } else if (j.is_array()) {
    for (auto& v : j)
      v = without_timings(v);
  }
  return j;
}

std::string golden_diff(const std::string& name, const std::string& actual) {
  const fs::path path = fs::path(VOLTA_CLI_TEST_DIR) / "golden" / name;
  const char* update = std::getenv("VOLTA_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    write_file(path, actual);
    return "";
  }
  const std::string expected = read_file(path);
  if (expected == actual)
    return "";
  std::istringstream a(expected), b(actual);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ha = static_cast<bool>(std::getline(a, la));
    const bool hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb)
      break;
    if (!ha || !hb || la != lb) {
      return "golden/" + name + " line " + std::to_string(line) +
             ":\n  expected: " + (ha ? la : "(end)") + "\n  actual:   " + (hb ? lb : "(end)") +
             "\n(VOLTA_UPDATE_GOLDEN=1 rewrites the file)\n--- actual ---\n" + actual;
    }
  }
  return "golden/" + name + ": differs (line endings?)";
}

} // namespace volta::cli_test
