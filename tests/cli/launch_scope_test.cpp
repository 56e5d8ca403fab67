// One default for what a verdict covers: every CTA of the launch, from flags and manifests alike.
// A run over CTA 0 alone says so on its verdict line and in every report; small truths of the
// command line (a misspelled flag, an unknown expected verdict) are located, with the closest
// word.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cli_test_util.hpp"
#include "engine/launch/json_locator.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// The gemm pair of the README's "one pair, from flags" example: a 2 x 2 grid of 16 x 16 tiles.
std::vector<std::string> gemm_pair_flags() {
  std::vector<std::string> args = {"prove",
                                   "--ref-ptx",
                                   "examples/kernels/gemm/gemm_naive.ptx",
                                   "--ref-kernel",
                                   "gemm_naive",
                                   "--opt-ptx",
                                   "examples/kernels/gemm/gemm_wrong.ptx",
                                   "--opt-kernel",
                                   "gemm_wrong",
                                   "--ref-block",
                                   "16,16",
                                   "--opt-block",
                                   "16,16",
                                   "--ref-grid",
                                   "2,2",
                                   "--opt-grid",
                                   "2,2"};
  for (const char* side : {"ref", "opt"}) {
    for (const char* a : {"A:0x100000:4:1024:in", "B:0x200000:4:1024:in", "C:0x300000:4:1024:out"})
      args.insert(args.end(), {fmt::format("--{}-array", side), a});
    for (const char* p : {"ptr:A", "ptr:B", "ptr:C"})
      args.insert(args.end(), {fmt::format("--{}-param", side), p});
  }
  return args;
}

TEST(LaunchScope, FlagsProveTheWholeLaunchByDefault) {
  // gemm_wrong drops a term in a column of a tile that CTA 0 does not compute: only the whole
  // launch finds it.
  const ToolRun run = run_tool(gemm_pair_flags());
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("NOT_EQUIVALENT"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("[CTA 0"), std::string::npos) << run.out;
}

TEST(LaunchScope, FirstCtaOnlySaysSoOnTheLineAndInEveryReport) {
  const auto dir = scratch_dir("LaunchScope.FirstCta");
  auto args = gemm_pair_flags();
  args.insert(args.end(),
              {"--ref-ctas", "first", "--opt-ctas", "first", "--report", (dir / "r.json").string(),
               "--junit", (dir / "r.xml").string(), "--sarif", (dir / "r.sarif").string()});
  const ToolRun run = run_tool(args);
  EXPECT_NE(run.out.find("[CTA 0 of 4 only]"), std::string::npos) << run.out;
  const json report = read_json(dir / "r.json");
  EXPECT_EQ(report["results"][0]["cta_scope"], "CTA 0 of 4") << report.dump(1);
  for (const auto& k : report["results"][0]["kernels"]) {
    EXPECT_EQ(k["launch_ctas"], 4);
    EXPECT_EQ(k["all_ctas"], false);
  }
  EXPECT_NE(read_file(dir / "r.xml").find("CTA 0 of 4 only"), std::string::npos);
  EXPECT_NE(read_file(dir / "r.sarif").find("CTA 0 of 4 only"), std::string::npos);
}

TEST(LaunchScope, OneSideOnCtaZeroNamesItsRole) {
  auto args = gemm_pair_flags();
  args.insert(args.end(), {"--opt-ctas", "first"});
  const ToolRun run = run_tool(args);
  EXPECT_NE(run.out.find("[optimized: CTA 0 of 4 only]"), std::string::npos) << run.out;
}

json one_entry_manifest() {
  json m = example_manifest("manifest.json");
  for (const auto& e : m["benchmarks"]) {
    if (e["name"] == "(gemm_naive, gemm_tiled)") {
      json entry = e;
      entry["reference"].erase("ctas");
      entry["optimized"].erase("ctas");
      return json{{"benchmarks", json::array({entry})}};
    }
  }
  ADD_FAILURE() << "no (gemm_naive, gemm_tiled) entry";
  return {};
}

TEST(LaunchScope, ManifestDefaultsToEveryCtaAndMaySayOtherwise) {
  const auto dir = scratch_dir("LaunchScope.ManifestDefault");
  json m = one_entry_manifest();
  write_file(dir / "all.json", m.dump(1));
  ToolRun run = run_tool({"prove", "--batch", (dir / "all.json").string()});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_EQ(run.out.find("[CTA 0"), std::string::npos) << run.out;

  m["ctas"] = "first"; // a manifest-wide default
  write_file(dir / "first.json", m.dump(1));
  run = run_tool({"prove", "--batch", (dir / "first.json").string()});
  EXPECT_NE(run.out.find("[CTA 0 of 4 only]"), std::string::npos) << run.out;

  m.erase("ctas"); // the Volta corpus's declared convention
  m["conventions"] = {{"only_cta0", "only CTA (0,0,0) is executed"}};
  write_file(dir / "corpus.json", m.dump(1));
  run = run_tool({"prove", "--batch", (dir / "corpus.json").string()});
  EXPECT_NE(run.out.find("[CTA 0 of 4 only]"), std::string::npos) << run.out;

  m.erase("conventions");
  m["ctas"] = "some";
  write_file(dir / "bad.json", m.dump(1));
  run = run_tool({"prove", "--batch", (dir / "bad.json").string()});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("$.ctas: expected \"first\" or \"all\""), std::string::npos) << run.err;
}

TEST(SmallTruths, MisspelledFlagGetsTheClosestOne) {
  const ToolRun run = run_tool({"prove", "--batch", "examples/manifest.json", "--timout", "3"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("unknown flag \"--timout\"; did you mean \"--timeout\"?"),
            std::string::npos)
      << run.err;
  const ToolRun far = run_tool({"check", "--zzzzzz"});
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_NE(far.err.find("unknown flag \"--zzzzzz\" (`volta-eg check --help` lists the flags)"),
            std::string::npos)
      << far.err;
}

TEST(SmallTruths, UnknownExpectedVerdictIsLocatedWithTheClosestWord) {
  const auto dir = scratch_dir("SmallTruths.Expected");
  json m = one_entry_manifest();
  m["benchmarks"][0]["expected"] = "EQUIVALNT";
  const std::string text = m.dump(1);
  write_file(dir / "m.json", text);
  const ToolRun run = run_tool({"prove", "--batch", (dir / "m.json").string()});
  EXPECT_EQ(run.exit_code, 2);
  const auto where = launch::locate_json_path(text, "$.benchmarks[0].expected");
  ASSERT_TRUE(where.has_value());
  EXPECT_NE(run.err.find(fmt::format("m.json:{}:{}: error: entry #0", where->line, where->column)),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("unknown verdict \"EQUIVALNT\"; did you mean \"EQUIVALENT\"?"),
            std::string::npos)
      << run.err;
}

TEST(JsonLocator, FindsKeysIndicesAndTheDeepestExistingMember) {
  const std::string text = "{\"a\": [1, {\"b\": \"x,]}\"}, [2, 3]],\n \"c\": {\"d\": true}}";
  auto at = [&](const char* path) {
    auto loc = launch::locate_json_path(text, path);
    return loc ? fmt::format("{}:{}", loc->line, loc->column) : std::string("none");
  };
  EXPECT_EQ(at("$"), "1:1");
  EXPECT_EQ(at("$.a"), "1:7");
  EXPECT_EQ(at("$.a[1].b"), "1:17");
  EXPECT_EQ(at("$.a[2][1]"), "1:30");
  EXPECT_EQ(at("$.c.d"), "2:13");
  EXPECT_EQ(at("$.c.missing"), "2:7"); // the object that lacks the key
  EXPECT_EQ(at("$.a[9]"), "1:7");
  EXPECT_EQ(at("no path"), "none");
}

} // namespace
} // namespace volta::cli_test
