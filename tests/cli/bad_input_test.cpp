// Every class of bad input ends with exit status 2 and a located message; a bad entry is
// reported as ERROR with its reason while the other entries still run.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// Runs `prove --batch` over `manifest` written to a scratch folder, with a JSON report.
struct BatchRun {
  ToolRun run;
  json report;
};

BatchRun prove_manifest(const std::string& test, const json& manifest,
                        std::vector<std::string> extra = {}) {
  const auto dir = scratch_dir(test);
  write_file(dir / "m.json", manifest.dump(1));
  std::vector<std::string> args = {"prove", "--batch", "m.json", "--report", "r.json"};
  args.insert(args.end(), extra.begin(), extra.end());
  BatchRun b;
  b.run = run_tool(args, dir);
  if (std::filesystem::exists(dir / "r.json"))
    b.report = read_json(dir / "r.json");
  return b;
}

// The demo without its two slowest pairs (softmax, attention): gemm_tiled, reduce_racy, gemm_wrong.
json small_demo() {
  json m = example_manifest("manifest.json");
  json kept = json::array();
  for (const auto& e : m["benchmarks"]) {
    const std::string name = e["name"];
    if (name.find("softmax") == std::string::npos && name.find("attention") == std::string::npos)
      kept.push_back(e);
  }
  m["benchmarks"] = kept;
  return m;
}

const json& entry_named(const json& report, const std::string& name) {
  for (const auto& e : report["results"]) {
    if (e["name"] == name)
      return e;
  }
  static const json none;
  ADD_FAILURE() << "no entry " << name;
  return none;
}

// The other entries ran and kept their verdicts.
void expect_others_ran(const json& report, const std::string& bad) {
  ASSERT_EQ(report["results"].size(), 3u);
  for (const auto& e : report["results"]) {
    if (e["name"] == bad)
      continue;
    EXPECT_TRUE(e["match"].get<bool>()) << e.dump(1);
    EXPECT_FALSE(e["bad_input"].get<bool>());
  }
  EXPECT_EQ(report["summary"]["bad_input"], 1);
  EXPECT_EQ(report["summary"]["exit_status"], 2);
}

TEST(BadInput, MalformedJsonIsLocatedByLineAndColumn) {
  const auto dir = scratch_dir("malformed");
  write_file(dir / "bad.json", "{\"benchmarks\": [\n  {\"name\": \"a\",, }\n]}\n");
  ToolRun r = run_tool({"prove", "--batch", "bad.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.json:2:16: error: invalid JSON"), std::string::npos) << r.err;
}

TEST(BadInput, ManifestWithoutBenchmarksArray) {
  const auto dir = scratch_dir("no-array");
  write_file(dir / "m.json", "{\"benchmarks\": 3}");
  ToolRun r = run_tool({"check", "--batch", "m.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("m.json: error: $.benchmarks: expected an array"), std::string::npos)
      << r.err;
}

TEST(BadInput, MissingManifestFile) {
  ToolRun r = run_tool({"prove", "--batch", "no/such/manifest.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no/such/manifest.json: error: cannot read manifest file"),
            std::string::npos)
      << r.err;
}

TEST(BadInput, WrongFieldTypeGivesTheJsonPathAndOnlyThatEntryFails) {
  json m = small_demo();
  m["benchmarks"][0]["reference"]["block"][1] = "x";
  auto b = prove_manifest("field-type", m);
  EXPECT_EQ(b.run.exit_code, 2) << b.run.err;
  EXPECT_NE(b.run.err.find("$.benchmarks[0].reference.block[1]: expected a non-negative integer"),
            std::string::npos)
      << b.run.err;
  EXPECT_NE(b.run.out.find("ERROR"), std::string::npos);
  const json& bad = entry_named(b.report, "(gemm_naive, gemm_tiled)");
  EXPECT_EQ(bad["verdict"], "ERROR");
  EXPECT_TRUE(bad["bad_input"].get<bool>());
  expect_others_ran(b.report, "(gemm_naive, gemm_tiled)");
}

TEST(BadInput, UnknownVerdictWordIsAnEntryError) {
  json m = small_demo();
  m["benchmarks"][1]["expected"] = "MAYBE";
  auto b = prove_manifest("verdict-word", m);
  EXPECT_EQ(b.run.exit_code, 2);
  EXPECT_NE(b.run.err.find("$.benchmarks[1].expected"), std::string::npos) << b.run.err;
  expect_others_ran(b.report, "reduce_racy");
}

TEST(BadInput, MissingPtxFile) {
  json m = small_demo();
  m["benchmarks"][0]["optimized"]["ptx"] = "/no/such/kernel.ptx";
  auto b = prove_manifest("missing-ptx", m);
  EXPECT_EQ(b.run.exit_code, 2);
  EXPECT_NE(b.run.err.find("/no/such/kernel.ptx: error: cannot read PTX file"), std::string::npos)
      << b.run.err;
  EXPECT_NE(b.run.err.find("entry #0 \"(gemm_naive, gemm_tiled)\""), std::string::npos)
      << b.run.err;
  expect_others_ran(b.report, "(gemm_naive, gemm_tiled)");
}

TEST(BadInput, UnknownKernelEntry) {
  json m = small_demo();
  m["benchmarks"][2]["optimized"]["entry"] = "gemm_nope";
  auto b = prove_manifest("unknown-entry", m);
  EXPECT_EQ(b.run.exit_code, 2);
  EXPECT_NE(b.run.err.find("no kernel entry named 'gemm_nope' (kernels: gemm_wrong)"),
            std::string::npos)
      << b.run.err;
  expect_others_ran(b.report, "(gemm_naive, gemm_wrong)");
}

TEST(BadInput, WrongParameterCount) {
  json m = small_demo();
  m["benchmarks"][2]["optimized"]["params"] = json::array({"ptr:A", "ptr:B"});
  auto b = prove_manifest("param-count", m);
  EXPECT_EQ(b.run.exit_code, 2);
  EXPECT_NE(b.run.err.find("kernel 'gemm_wrong' has 3 parameters but the configuration gives 2"),
            std::string::npos)
      << b.run.err;
  expect_others_ran(b.report, "(gemm_naive, gemm_wrong)");
}

TEST(BadInput, BadLaunchConfigurationBlockTooLarge) {
  json m = small_demo();
  m["benchmarks"][1]["kernel"]["block"] = json::array({2048, 1, 1});
  auto b = prove_manifest("big-block", m);
  EXPECT_EQ(b.run.exit_code, 2);
  const json& bad = entry_named(b.report, "reduce_racy");
  EXPECT_EQ(bad["verdict"], "ERROR");
  EXPECT_NE(b.run.err.find("reduce_racy"), std::string::npos) << b.run.err;
  expect_others_ran(b.report, "reduce_racy");
}

TEST(BadInput, BadFlagsAreRefusedBeforeAnythingRuns) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--shard", "3/3"}, "--shard: expected 0 <= I < N, got 3/3"},
      {{"--shard", "x"}, "--shard: expected I/N"},
      {{"--shard", "1/0"}, "--shard"},
      {{"-j", "0"}, "-j/--jobs"},
      {{"--timeout", "-1"}, "--timeout: expected seconds >= 0"},
      {{"--max-memory", "-2"}, "--max-memory: expected GiB >= 0"},
      {{"--color", "sometimes"}, "--color: expected auto, always or never"},
      {{"--filter", "("}, "--filter: invalid regular expression"},
      {{"--filter", "no entry has this name"},
       "--filter: \"no entry has this name\" matches no entry"},
      {{"--frobnicate"}, "frobnicate"},
      {{"--timeout", "soon"}, "--timeout"},
      {{"--rule-nodes", "0"}, "--rule-nodes"},
      {{"--benign-races", "--strict-races"}, "give one race rule, not both"},
  };
  for (const auto& [flags, message] : cases) {
    std::vector<std::string> args = {"prove", "--batch", "examples/manifest.json"};
    args.insert(args.end(), flags.begin(), flags.end());
    ToolRun r = run_tool(args);
    EXPECT_EQ(r.exit_code, 2) << flags[0];
    EXPECT_NE(r.err.find(message), std::string::npos) << flags[0] << ": " << r.err;
    EXPECT_EQ(r.out.find("EQUIVALENT"), std::string::npos) << "nothing may run: " << r.out;
  }
}

// Arrays given by flags are held to the manifest's rules: two arrays of one name, or sharing
// bytes (one kernel's stores would be the other array's inputs), are refused.
TEST(BadInput, OverlappingOrDuplicateFlagArraysAreRefused) {
  const std::string ptx = "examples/kernels/safety/data_dependent_branch.ptx";
  for (const auto& [second, message] : std::vector<std::pair<std::string, std::string>>{
           {"out:0x100040:4:32:out:f32", "array \"out\" overlaps array \"in\""},
           {"in:0x200000:4:32:out:f32", "duplicate array \"in\""}}) {
    ToolRun r = run_tool({"check", "--ptx", ptx, "--kernel", "k", "--block", "32", "--array",
                          "in:0x100000:4:32:in:f32", "--array", second});
    EXPECT_EQ(r.exit_code, 2) << second << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

TEST(BadInput, UnwritableReportIsBadInput) {
  ToolRun r = run_tool({"check", "--batch", "examples/safety/manifest.json", "--filter",
                        "reduce_ok", "--report", "/no/such/folder/r.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/no/such/folder/r.json: error: cannot write the JSON report file"),
            std::string::npos)
      << r.err;
}

} // namespace
} // namespace volta::cli_test
