// The emulator cross-check of an EQUIVALENT through the real binary (docs/semantics.md, "The
// emulator cross-check"): on by default, the report's `cross_check` object and summary, off with
// --no-cross-check or an entry's "cross_check": false, INCONSISTENT's exit status 3 through
// `merge`, and `run --cross-check-input`. (That a contradiction becomes INCONSISTENT is tested
// on the cross-check itself, tests/emulate/cross_check_run_test.cpp: a CLI test of it would
// need the prover to be wrong.)
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

json prove_gemm(const std::filesystem::path& dir, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"prove",
                                   "--batch",
                                   source_dir() + "/examples/manifest.json",
                                   "--filter",
                                   "gemm",
                                   "--report",
                                   (dir / "r.json").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const ToolRun r = run_tool(args);
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  return read_json(dir / "r.json");
}

const json& result_named(const json& report, const std::string& part) {
  for (const auto& r : report["results"]) {
    if (r["name"].get<std::string>().find(part) != std::string::npos)
      return r;
  }
  ADD_FAILURE() << "no result " << part;
  return report;
}

TEST(CrossCheckCli, EveryEquivalentIsCrossCheckedByDefault) {
  const json report = prove_gemm(scratch_dir("cross-check-on"));
  const json& tiled = result_named(report, "gemm_tiled");
  ASSERT_EQ(tiled["verdict"], "EQUIVALENT");
  const json& c = tiled["cross_check"];
  ASSERT_TRUE(c.is_object()) << tiled.dump(1);
  EXPECT_TRUE(c["ran"].get<bool>());
  EXPECT_TRUE(c["skipped"].is_null());
  EXPECT_GE(c["inputs"].get<int>(), 1);
  EXPECT_EQ(c["inputs_planned"], 3);
  // The whole C of the 2 x 2 grid of 16 x 16 tiles, on each input.
  EXPECT_EQ(c["elements"].get<uint64_t>(), 1024u * c["inputs"].get<uint64_t>());
  EXPECT_GT(c["instructions"].get<uint64_t>(), 0u);
  EXPECT_TRUE(c["contradiction"].is_null());
  ASSERT_EQ(c["arrays"].size(), 1u);
  EXPECT_EQ(c["arrays"][0]["array"], "C");
  EXPECT_EQ(c["arrays"][0]["compared_as"], "real");
  EXPECT_TRUE(tiled["phases"].contains("cross_check"));
  // Only an EQUIVALENT is cross-checked.
  EXPECT_TRUE(result_named(report, "gemm_wrong")["cross_check"].is_null());
  EXPECT_EQ(report["summary"]["cross_checks"]["ran"], 1);
  EXPECT_EQ(report["summary"]["cross_checks"]["contradictions"], 0);
  EXPECT_EQ(report["options"]["cross_check"], true);
}

TEST(CrossCheckCli, NoCrossCheckTurnsItOff) {
  const json report = prove_gemm(scratch_dir("cross-check-off"), {"--no-cross-check"});
  const json& tiled = result_named(report, "gemm_tiled");
  EXPECT_EQ(tiled["verdict"], "EQUIVALENT");
  EXPECT_TRUE(tiled["cross_check"].is_null());
  EXPECT_FALSE(tiled["phases"].contains("cross_check"));
  EXPECT_EQ(report["summary"]["cross_checks"]["ran"], 0);
  EXPECT_EQ(report["options"]["cross_check"], false);
}

TEST(CrossCheckCli, AnEntryCanTurnItOffAndNeverExpectInconsistent) {
  const auto dir = scratch_dir("cross-check-entry");
  json m = example_manifest("manifest.json");
  json kept = json::array();
  for (auto e : m["benchmarks"]) {
    if (e["name"].get<std::string>().find("gemm_tiled") != std::string::npos) {
      e["cross_check"] = false;
      kept.push_back(e);
    }
  }
  ASSERT_EQ(kept.size(), 1u);
  m["benchmarks"] = kept;
  write_file(dir / "m.json", m.dump(1));
  ToolRun r = run_tool(
      {"prove", "--batch", (dir / "m.json").string(), "--report", (dir / "r.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_json(dir / "r.json")["results"][0]["cross_check"].is_null());

  // A value that is not a boolean, and INCONSISTENT as an expectation, are bad input.
  m["benchmarks"][0]["cross_check"] = "no";
  write_file(dir / "bad.json", m.dump(1));
  r = run_tool({"prove", "--batch", (dir / "bad.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE((r.out + r.err).find("$.benchmarks[0].cross_check: expected true or false"),
            std::string::npos)
      << r.out << r.err;
  m["benchmarks"][0]["cross_check"] = true;
  m["benchmarks"][0]["expected"] = "INCONSISTENT";
  write_file(dir / "bad2.json", m.dump(1));
  r = run_tool({"prove", "--batch", (dir / "bad2.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE((r.out + r.err).find("never expected"), std::string::npos) << r.out << r.err;
}

TEST(CrossCheckCli, InconsistentFailsWithExitStatusThree) {
  // A report whose EQUIVALENT the emulator contradicted (made by hand: the prover is right
  // here), merged: the exit status of the report is 3, and the summary says why.
  const auto dir = scratch_dir("cross-check-inconsistent");
  json report = prove_gemm(dir);
  for (auto& r : report["results"]) {
    if (r["verdict"] != "EQUIVALENT")
      continue;
    r["verdict"] = "INCONSISTENT";
    r["match"] = false;
    r["cross_check"]["contradiction"] = {
        {"element", "C[3]"},
        {"reference_device", "1.5 (f32)"},
        {"optimized_device", "nan (f32, bits 0x7fffffff)"},
        {"input", 0},
        {"input_name", "specials"},
        {"why", "a number in the reference, NaN in the optimized kernel"}};
  }
  write_file(dir / "shard.json", report.dump(1));
  const ToolRun merged =
      run_tool({"merge", (dir / "shard.json").string(), "--report", (dir / "merged.json").string(),
                "--sarif", (dir / "m.sarif").string()});
  EXPECT_EQ(merged.exit_code, 3) << merged.out << merged.err;
  EXPECT_NE(
      merged.out.find("contradicted by the emulator cross-check (INCONSISTENT, exit status 3)"),
      std::string::npos)
      << merged.out;
  const json m = read_json(dir / "merged.json");
  EXPECT_EQ(m["summary"]["exit_status"], 3);
  EXPECT_EQ(m["summary"]["cross_checks"]["contradictions"], 1);
  bool found = false;
  const json sarif = read_json(dir / "m.sarif");
  for (const auto& res : sarif["runs"][0]["results"])
    found = found || res["ruleId"] == "inconsistent";
  EXPECT_TRUE(found);
}

TEST(CrossCheckCli, RunReproducesAnInputSet) {
  const std::string manifest = source_dir() + "/examples/manifest.json";
  ToolRun r = run_tool({"run", "--batch", manifest, "--filter", "gemm_tiled", "--side", "opt",
                        "--cross-check-input", "2", "--show", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("C (f32"), std::string::npos) << r.out;
  // Both kernels get the same input bytes: the reference stores the same values here.
  ToolRun ref = run_tool({"run", "--batch", manifest, "--filter", "gemm_tiled", "--side", "ref",
                          "--cross-check-input", "2", "--show", "2"});
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  auto values = [](const std::string& out) { return out.substr(out.find("C (f32")); };
  EXPECT_EQ(values(r.out), values(ref.out));
  r = run_tool({"run", "--batch", manifest, "--filter", "gemm_tiled", "--cross-check-input", "3"});
  EXPECT_EQ(r.exit_code, 2);
}

} // namespace
} // namespace volta::cli_test
