// The float story beside the proof through the real binary (docs/semantics.md, "Float
// divergence"): the measured divergence of the cancellation example and its warning on the
// console and in the reports, and the float tolerance's statuses — within, beyond (a failing
// EQUIVALENT, exit status 1), none — from the command line and from an entry, with located
// errors for bad values.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

struct ProveRun {
  std::filesystem::path dir;
  ToolRun tool;
  json report;
  std::string junit;
  json sarif;
};

// Proves `manifest` (written to a scratch folder) with `extra` flags, with every report.
ProveRun prove(const std::string& test, const json& manifest, std::vector<std::string> extra = {}) {
  const auto dir = scratch_dir(test);
  write_file(dir / "m.json", manifest.dump(1));
  std::vector<std::string> args = {"prove",   "--batch", "m.json",  "--report", "r.json",
                                   "--junit", "r.xml",   "--sarif", "r.sarif"};
  args.insert(args.end(), extra.begin(), extra.end());
  ProveRun r;
  r.dir = dir;
  r.tool = run_tool(args, dir);
  if (std::filesystem::exists(dir / "r.json")) {
    r.report = read_json(dir / "r.json");
    r.junit = read_file(dir / "r.xml");
    r.sarif = read_json(dir / "r.sarif");
  }
  return r;
}

json cancellation() {
  return example_manifest("float/manifest.json");
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::string> sarif_rules(const json& sarif) {
  std::vector<std::string> ids;
  for (const auto& result : sarif["runs"][0]["results"])
    ids.push_back(result["ruleId"].get<std::string>());
  return ids;
}

TEST(FloatErrorCli, TheCancellationIsEquivalentAndFlagged) {
  const ProveRun r = prove("float-cancellation", cancellation());
  ASSERT_EQ(r.tool.exit_code, 0) << r.tool.out << r.tool.err;
  const json& e = r.report["results"][0];
  EXPECT_EQ(e["verdict"], "EQUIVALENT");
  EXPECT_TRUE(e["match"].get<bool>());
  const json& c = e["cross_check"];
  ASSERT_TRUE(c["ran"].get<bool>()) << c.dump(1);
  ASSERT_EQ(c["arrays"].size(), 1u);
  const json& y = c["arrays"][0];
  // Every y is 0 in float where the reference stores x: 100% apart, at the array's scale.
  EXPECT_DOUBLE_EQ(y["max_rel"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(y["max_scaled"].get<double>(), 1.0);
  EXPECT_GT(y["max_ulp"].get<uint64_t>(), 1'000'000u);
  EXPECT_GT(y["beyond_rounding"].get<uint64_t>(), 0u);
  EXPECT_TRUE(c["float_tolerance"].is_null());
  ASSERT_EQ(c["float_lines"].size(), 2u) << c["float_lines"].dump(1);
  // On the console: the figure, and the warning naming the cancellation.
  EXPECT_TRUE(has(r.tool.out, "float divergence on the emulator: y up to")) << r.tool.out;
  EXPECT_TRUE(has(r.tool.out, "catastrophic cancellation")) << r.tool.out;
  EXPECT_FALSE(has(r.tool.out, "beyond float tolerance"));
  // JUnit: passing, the figure in the properties and the warning in system-out; SARIF: a
  // precision-loss warning, no error.
  EXPECT_FALSE(has(r.junit, "<failure")) << r.junit;
  EXPECT_TRUE(has(r.junit, "name=\"float_max_rel\" value=\"1\"")) << r.junit;
  EXPECT_TRUE(has(r.junit, "catastrophic cancellation"));
  EXPECT_EQ(sarif_rules(r.sarif), std::vector<std::string>{"float-precision-loss"});
  EXPECT_EQ(r.sarif["runs"][0]["results"][0]["level"], "warning");
}

TEST(FloatErrorCli, BeyondTheToleranceFailsButStaysEquivalent) {
  const ProveRun r =
      prove("float-beyond", cancellation(), {"--float-tolerance", "rel=1e-3,abs=1e-5"});
  EXPECT_EQ(r.tool.exit_code, 1) << r.tool.out << r.tool.err;
  const json& e = r.report["results"][0];
  EXPECT_EQ(e["verdict"], "EQUIVALENT"); // over the reals, still
  EXPECT_FALSE(e["match"].get<bool>());
  const json& t = e["cross_check"]["float_tolerance"];
  EXPECT_EQ(t["status"], "beyond");
  EXPECT_DOUBLE_EQ(t["rel"].get<double>(), 1e-3);
  EXPECT_DOUBLE_EQ(t["abs"].get<double>(), 1e-5);
  EXPECT_GT(e["cross_check"]["arrays"][0]["beyond_tolerance"].get<uint64_t>(), 0u);
  EXPECT_EQ(r.report["options"]["float_tolerance"]["rel"], 1e-3);
  EXPECT_EQ(r.report["summary"]["exit_status"], 1);
  EXPECT_TRUE(has(r.tool.out, "beyond float tolerance")) << r.tool.out;
  EXPECT_TRUE(has(r.tool.out, "beyond the float tolerance rel=0.001, abs=1e-05: ")) << r.tool.out;
  EXPECT_FALSE(has(r.tool.out, "expected EQUIVALENT")) << r.tool.out;
  EXPECT_TRUE(has(r.junit, "<failure message=\"verdict EQUIVALENT, beyond the float tolerance"))
      << r.junit;
  EXPECT_TRUE(has(r.junit, "name=\"float_tolerance\" value=\"beyond\""));
  const auto rules = sarif_rules(r.sarif);
  EXPECT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[0], "float-tolerance");
  EXPECT_EQ(r.sarif["runs"][0]["results"][0]["level"], "error");
  // A merged report keeps the failure (its exit status is read from `match`).
  const ToolRun merged = run_tool({"merge", "r.json", "--report", "merged.json", "--quiet"}, r.dir);
  EXPECT_EQ(merged.exit_code, 1) << merged.err;
}

TEST(FloatErrorCli, WithinTheToleranceAndAnEntrysOwnToleranceWins) {
  json m = cancellation();
  // |x - 0| <= 2 |x|: the cancellation is within a relative tolerance of 200%.
  m["benchmarks"][0]["float_tolerance"] = {{"rel", 2}};
  const ProveRun r = prove("float-within", m, {"--float-tolerance", "rel=1e-3"});
  EXPECT_EQ(r.tool.exit_code, 0) << r.tool.out << r.tool.err;
  const json& e = r.report["results"][0];
  EXPECT_TRUE(e["match"].get<bool>());
  EXPECT_EQ(e["cross_check"]["float_tolerance"]["status"], "within");
  EXPECT_DOUBLE_EQ(e["cross_check"]["float_tolerance"]["abs"].get<double>(), 0.0);
  EXPECT_FALSE(has(r.tool.out, "beyond float tolerance"));
  EXPECT_FALSE(has(r.junit, "<failure"));
}

TEST(FloatErrorCli, TheCacheNeverAnswersForAnotherTolerance) {
  const auto cache = scratch_dir("float-cache") / "cache";
  // A kept result of the pair without a tolerance (a pass) must not answer for the same pair
  // with one (from the flag or from the entry), nor the other way round.
  ProveRun r = prove("float-cache-none", cancellation(), {"--cache", cache.string()});
  ASSERT_EQ(r.tool.exit_code, 0) << r.tool.err;
  r = prove("float-cache-flag", cancellation(),
            {"--cache", cache.string(), "--float-tolerance", "rel=1e-3"});
  EXPECT_EQ(r.tool.exit_code, 1) << r.tool.out;
  EXPECT_EQ(r.report["results"][0]["cross_check"]["float_tolerance"]["status"], "beyond");
  json m = cancellation();
  m["benchmarks"][0]["float_tolerance"] = {{"abs", 1e-5}};
  r = prove("float-cache-entry", m, {"--cache", cache.string()});
  EXPECT_EQ(r.tool.exit_code, 1) << r.tool.out;
  m["benchmarks"][0]["float_tolerance"] = {{"abs", 1e6}};
  r = prove("float-cache-entry-wide", m, {"--cache", cache.string()});
  EXPECT_EQ(r.tool.exit_code, 0) << r.tool.out;
  // The same run again is answered from the cache, with the same status.
  r = prove("float-cache-again", cancellation(),
            {"--cache", cache.string(), "--float-tolerance", "rel=1e-3"});
  EXPECT_EQ(r.tool.exit_code, 1) << r.tool.out;
  EXPECT_TRUE(r.report["results"][0]["cached"].get<bool>()) << r.report["results"][0].dump(1);
  EXPECT_EQ(r.report["results"][0]["cross_check"]["float_tolerance"]["status"], "beyond");
}

TEST(FloatErrorCli, TheTiledGemmIsNotFlagged) {
  json m = example_manifest("manifest.json");
  json kept = json::array();
  for (const auto& e : m["benchmarks"]) {
    if (e["name"].get<std::string>().find("gemm_tiled") != std::string::npos)
      kept.push_back(e);
  }
  ASSERT_EQ(kept.size(), 1u);
  m["benchmarks"] = kept;
  const ProveRun r = prove("float-gemm", m, {"--float-tolerance", "rel=1e-3,abs=1e-3"});
  ASSERT_EQ(r.tool.exit_code, 0) << r.tool.out << r.tool.err;
  const json& c = r.report["results"][0]["cross_check"];
  ASSERT_TRUE(c["ran"].get<bool>());
  EXPECT_EQ(c["arrays"][0]["beyond_rounding"], 0u);
  EXPECT_LT(c["arrays"][0]["max_scaled"].get<double>(), 1e-5);
  EXPECT_EQ(c["float_tolerance"]["status"], "within");
  EXPECT_FALSE(has(r.tool.out, "warning:")) << r.tool.out;
  EXPECT_TRUE(sarif_rules(r.sarif).empty());
}

TEST(FloatErrorCli, BadTolerancesAreRefusedWhereTheyAre) {
  json m = cancellation();
  m["benchmarks"][0]["float_tolerance"] = {{"rel", -1}};
  ProveRun r = prove("float-bad-entry", m);
  EXPECT_EQ(r.tool.exit_code, 2);
  EXPECT_TRUE(has(r.tool.err + r.tool.out,
                  "$.benchmarks[0].float_tolerance.rel: expected a finite number >= 0"))
      << r.tool.err << r.tool.out;
  m["benchmarks"][0]["float_tolerance"] = {{"rell", 1}};
  r = prove("float-bad-key", m);
  EXPECT_EQ(r.tool.exit_code, 2);
  EXPECT_TRUE(has(r.tool.err + r.tool.out, "unknown key \"rell\"; did you mean \"rel\"?"))
      << r.tool.err << r.tool.out;
  m["benchmarks"][0]["float_tolerance"] = json::object();
  r = prove("float-empty", m);
  EXPECT_EQ(r.tool.exit_code, 2);
  m["benchmarks"][0]["float_tolerance"] = {{"abs", 1e-5}};
  m["benchmarks"][0]["cross_check"] = false;
  r = prove("float-no-cross-check-entry", m);
  EXPECT_EQ(r.tool.exit_code, 2);
  EXPECT_TRUE(has(r.tool.err + r.tool.out, "\"cross_check\": false turns off"));

  for (const std::string bad :
       {"rel=abc", "rel=1e-3,rel=1", "tol=1", "rel=-1", "rel=inf", "rel=1e-3,"}) {
    r = prove("float-bad-flag", cancellation(), {"--float-tolerance", bad});
    EXPECT_EQ(r.tool.exit_code, 2) << bad;
    EXPECT_TRUE(has(r.tool.err, "--float-tolerance")) << bad << ": " << r.tool.err;
  }
  r = prove("float-flag-no-cross-check", cancellation(),
            {"--float-tolerance", "rel=1e-3", "--no-cross-check"});
  EXPECT_EQ(r.tool.exit_code, 2);
  EXPECT_TRUE(has(r.tool.err, "does not combine with --no-cross-check")) << r.tool.err;
}

} // namespace
} // namespace volta::cli_test
