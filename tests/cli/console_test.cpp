// The console: --quiet, `--report -`, --no-progress, colors and escape codes, -V,
// the exit codes in --help, an unknown command; and reports that never overwrite an input.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// The race check of the demo (fast), copied with absolute PTX paths into a scratch folder.
std::filesystem::path demo_dir(const std::string& test) {
  const auto dir = scratch_dir(test);
  write_file(dir / "m.json", example_manifest("manifest.json").dump(1));
  return dir;
}

TEST(Console, QuietPrintsNothingOnStdout) {
  const auto dir = demo_dir("console-quiet");
  ToolRun r = run_tool({"check", "--batch", "m.json", "-q"}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  r = run_tool({"check", "--batch", "m.json", "--quiet", "--report", "r.json"}, dir);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(std::filesystem::exists(dir / "r.json"));
}

TEST(Console, ReportDashWritesOnlyTheJsonToStdout) {
  const auto dir = demo_dir("console-dash");
  ToolRun r = run_tool({"check", "--batch", "m.json", "--report", "-"}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out); // nothing else on stdout
  EXPECT_EQ(report["command"], "check");
  EXPECT_NE(r.err.find("DATA_RACE"), std::string::npos) << "the result lines go to stderr";
  r = run_tool({"check", "--batch", "m.json", "--junit", "-"}, dir);
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Console, NoEscapeCodesWithoutATerminal) {
  const auto dir = demo_dir("console-escapes");
  for (const char* extra : {"--no-progress", "--color=auto"}) {
    ToolRun r = run_tool({"check", "--batch", "m.json", extra}, dir);
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << extra;
  }
  ToolRun r = run_tool({"check", "--batch", "m.json", "--color", "always"}, dir);
  EXPECT_NE(r.out.find('\x1b'), std::string::npos);
}

TEST(Console, VersionHelpAndUnknownCommand) {
  ToolRun r = run_tool({"-V"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("volta-eg ", 0), 0u) << r.out;
  r = run_tool({"--help"});
  EXPECT_NE(r.out.find("130  interrupted by SIGINT"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("BARRIER_DIVERGENCE, UNINITIALIZED"), std::string::npos);
  r = run_tool({"prov", "--batch", "x.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "volta-eg: error: unknown command \"prov\"; did you mean \"prove\"?\n");
}

TEST(Console, ReportsNeverOverwriteAnInput) {
  const auto dir = demo_dir("console-overwrite");
  const std::string before = read_file(dir / "m.json");
  ToolRun r = run_tool({"check", "--batch", "m.json", "--report", "./m.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--report ./m.json: this is an input of the run (m.json)"),
            std::string::npos)
      << r.err;
  const std::string ptx = source_dir() + "/examples/kernels/races/reduce_racy.ptx";
  const std::string ptx_before = read_file(ptx);
  r = run_tool({"check", "--batch", "m.json", "--sarif", ptx}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("this is an input of the run"), std::string::npos) << r.err;
  r = run_tool({"check", "--batch", "m.json", "--report", "a.json", "--junit", "a.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--report and --junit name the same file a.json"), std::string::npos)
      << r.err;
  EXPECT_EQ(read_file(dir / "m.json"), before);
  EXPECT_EQ(read_file(ptx), ptx_before);
  // merge: the merged report must not replace a shard report.
  r = run_tool({"check", "--batch", "m.json", "--report", "s.json"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_tool({"merge", "s.json", "--report", "s.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("this is an input of the run"), std::string::npos) << r.err;
}

} // namespace
} // namespace volta::cli_test
