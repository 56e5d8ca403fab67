// Sharding (--shard I/N) and `volta-eg merge`: the shards of a batch are disjoint, cover it, and
// merge into the report of the unsharded run (timings aside); merge refuses what does not fit.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <set>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// Entries whose report does not depend on the schedule (a race between CTAs run in parallel is
// reported between whichever two CTAs met first, so `cta_race (all CTAs)` is left out).
const std::string kSafetyFilter = "^(?!cta_race \\(all)";

std::vector<std::string> check_args(const std::string& report, const std::string& shard = "") {
  std::vector<std::string> args = {
      "check",    "--batch",     source_dir() + "/examples/safety/manifest.json",
      "--filter", kSafetyFilter, "--report",
      report};
  if (!shard.empty()) {
    args.push_back("--shard");
    args.push_back(shard);
  }
  return args;
}

TEST(ShardMerge, ThreeShardsMergeIntoTheUnshardedReport) {
  const auto dir = scratch_dir("three-shards");
  ToolRun full = run_tool(check_args("full.json"), dir);
  ASSERT_EQ(full.exit_code, 0) << full.err;
  std::set<std::string> seen;
  size_t total = 0;
  for (int i = 0; i < 3; ++i) {
    const std::string name = fmt::format("s{}.json", i);
    ToolRun shard = run_tool(check_args(name, fmt::format("{}/3", i)), dir);
    ASSERT_EQ(shard.exit_code, 0) << shard.err;
    json report = read_json(dir / name);
    EXPECT_EQ(report["shard"]["index"], i);
    EXPECT_EQ(report["shard"]["count"], 3);
    for (const auto& e : report["results"]) {
      EXPECT_TRUE(seen.insert(e["name"].get<std::string>()).second)
          << "in two shards: " << e["name"];
      ++total;
    }
  }
  // Shard order on the command line does not matter.
  ToolRun merge = run_tool({"merge", "s2.json", "s0.json", "s1.json", "--report", "merged.json",
                            "--junit", "m.xml", "--sarif", "m.sarif"},
                           dir);
  ASSERT_EQ(merge.exit_code, 0) << merge.err;
  EXPECT_NE(merge.out.find("13 entries: 13 as expected"), std::string::npos) << merge.out;
  const json full_report = read_json(dir / "full.json");
  EXPECT_EQ(total, full_report["results"].size());
  EXPECT_EQ(without_timings(read_json(dir / "merged.json")), without_timings(full_report));
  EXPECT_TRUE(std::filesystem::exists(dir / "m.xml"));
  EXPECT_TRUE(std::filesystem::exists(dir / "m.sarif"));
}

TEST(ShardMerge, ProveShardsOfTheDemoMergeToo) {
  const auto dir = scratch_dir("prove-shards");
  const std::string manifest = source_dir() + "/examples/manifest.json";
  auto args = [&](const std::string& report, const std::string& shard) {
    // The cross-check's time budget would let a loaded machine run fewer of its input sets in
    // one run than in another: without a budget every run compares all of them.
    std::vector<std::string> a = {"prove",
                                  "--batch",
                                  manifest,
                                  "--filter",
                                  "gemm|reduce",
                                  "--report",
                                  report,
                                  "--cross-check-limit",
                                  "0"};
    if (!shard.empty())
      a.insert(a.end(), {"--shard", shard});
    return a;
  };
  ASSERT_EQ(run_tool(args("full.json", ""), dir).exit_code, 0);
  ASSERT_EQ(run_tool(args("a.json", "0/2"), dir).exit_code, 0);
  ASSERT_EQ(run_tool(args("b.json", "1/2"), dir).exit_code, 0);
  ToolRun merge =
      run_tool({"merge", "a.json", "b.json", "--report", "merged.json", "--quiet"}, dir);
  ASSERT_EQ(merge.exit_code, 0) << merge.err;
  EXPECT_EQ(merge.out, "");
  EXPECT_EQ(without_timings(read_json(dir / "merged.json")),
            without_timings(read_json(dir / "full.json")));
}

TEST(ShardMerge, MergeKeepsTheExitStatusRule) {
  const auto dir = scratch_dir("merge-status");
  json m = example_manifest("safety/manifest.json");
  m["benchmarks"][1]["expected"] = "DATA_RACE"; // reduce_ok is RACE_FREE: a mismatch
  write_file(dir / "m.json", m.dump());
  for (int i = 0; i < 2; ++i) {
    run_tool({"check", "--batch", "m.json", "--filter", "reduce", "--shard", fmt::format("{}/2", i),
              "--report", fmt::format("s{}.json", i)},
             dir);
  }
  ToolRun merge = run_tool({"merge", "s0.json", "s1.json"}, dir);
  EXPECT_EQ(merge.exit_code, 1) << merge.err;
  EXPECT_NE(merge.out.find("reduce_ok"), std::string::npos);
}

TEST(ShardMerge, MergeRefusesReportsThatDoNotBelongTogether) {
  const auto dir = scratch_dir("merge-refuse");
  ASSERT_EQ(run_tool(check_args("a0.json", "0/2"), dir).exit_code, 0);
  ASSERT_EQ(run_tool(check_args("a1.json", "1/2"), dir).exit_code, 0);
  ASSERT_EQ(run_tool({"check", "--batch", source_dir() + "/examples/manifest.json", "--shard",
                      "1/2", "--report", "other.json"},
                     dir)
                .exit_code,
            0);
  ToolRun r = run_tool({"merge", "a0.json", "other.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("other.json: error: cannot merge reports of different manifests"),
            std::string::npos)
      << r.err;

  r = run_tool({"merge", "a0.json", "a0.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("shard 0/2 is also given as a0.json"), std::string::npos) << r.err;

  r = run_tool({"merge", "a1.json", "--report", "partial.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing shard 0/2"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "partial.json"));

  r = run_tool({"merge", "a1.json", "--allow-partial", "--report", "partial.json"}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_json(dir / "partial.json")["missing_shards"], json::array({0}));

  write_file(dir / "broken.json", "{\"tool\": \"volta-eg\",\n  \"results\": [}\n");
  r = run_tool({"merge", "a0.json", "broken.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("broken.json:2:15: error: invalid JSON"), std::string::npos) << r.err;

  write_file(dir / "alien.json", "{\"results\": []}");
  r = run_tool({"merge", "alien.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("alien.json: error: $.tool: not a volta-eg report"), std::string::npos)
      << r.err;

  ASSERT_EQ(run_tool({"prove", "--batch", source_dir() + "/examples/safety/manifest.json",
                      "--filter", kSafetyFilter, "--shard", "1/2", "--report", "prove1.json"},
                     dir)
                .exit_code,
            0);
  r = run_tool({"merge", "a0.json", "prove1.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("different commands"), std::string::npos) << r.err;
}

TEST(ShardMerge, MoreShardsThanEntriesGivesEmptyShards) {
  const auto dir = scratch_dir("empty-shard");
  ToolRun r = run_tool({"prove", "--batch", source_dir() + "/examples/manifest.json", "--shard",
                        "15/16", "--report", "r.json"},
                       dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_json(dir / "r.json")["results"].size(), 0u);
  EXPECT_NE(r.out.find("0 entries"), std::string::npos) << r.out;
}

} // namespace
} // namespace volta::cli_test

namespace volta::cli_test {
namespace {

// A shard report left by an older run (a PTX file changed since) is refused, not merged:
// reports carry a digest of the manifest and of every PTX file, and of the tool.
TEST(ShardMerge, MergeRefusesAShardOfAnOlderRun) {
  const auto dir = scratch_dir("stale-shard");
  const auto ptx = [](const std::string& extra) {
    return ".version 7.0\n.target sm_80\n.address_size 64\n\n.visible .entry k(\n\t.param .u64 "
           "p0\n)\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, %tid.x;\n" +
           extra + "\tret;\n}\n";
  };
  write_file(dir / "k.ptx", ptx(""));
  nlohmann::json entry = {{"kind", "race_check"},
                          {"expected", "RACE_FREE"},
                          {"kernel",
                           {{"ptx", "k.ptx"},
                            {"entry", "k"},
                            {"block", {32, 1, 1}},
                            {"grid", {1, 1, 1}},
                            {"arrays", nlohmann::json::array({{{"name", "A"},
                                                               {"base", "0x100000"},
                                                               {"elem_width", 4},
                                                               {"len", 32},
                                                               {"kind", "in"}}})},
                            {"params", {"ptr:A"}}}}};
  nlohmann::json m = {{"benchmarks", nlohmann::json::array()}};
  for (const char* name : {"a", "b"}) {
    entry["name"] = name;
    m["benchmarks"].push_back(entry);
  }
  write_file(dir / "m.json", m.dump());
  const auto shard = [&](int i) {
    return run_tool({"check", "--batch", "m.json", "--shard", fmt::format("{}/2", i), "--report",
                     fmt::format("s{}.json", i)},
                    dir);
  };
  ASSERT_EQ(shard(0).exit_code, 0);
  ASSERT_EQ(shard(1).exit_code, 0);
  const json s0 = read_json(dir / "s0.json");
  EXPECT_TRUE(s0["inputs_digest"].is_string());
  EXPECT_TRUE(s0["tool_digest"].is_string());
  ToolRun ok = run_tool({"merge", "s0.json", "s1.json", "-q"}, dir);
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  // The kernel changes; only shard 1 runs again: shard 0's report is stale.
  write_file(dir / "k.ptx", ptx("\tmov.u32 %r2, %ctaid.x;\n"));
  ASSERT_EQ(shard(1).exit_code, 0);
  ToolRun stale = run_tool({"merge", "s0.json", "s1.json", "-q"}, dir);
  EXPECT_EQ(stale.exit_code, 2);
  EXPECT_NE(stale.err.find("different inputs"), std::string::npos) << stale.err;
}

} // namespace
} // namespace volta::cli_test
