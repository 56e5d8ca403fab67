// The race rule for stores of provably equal values through the binary: `--benign-races` (the
// default) and `--strict-races`, a manifest entry's "races", and the report's options.races
// (docs/cli.md, "The race rule").
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// Two warps store one value (a[0] + a[1]) to one shared word (c31_warp_store_one_value).
std::vector<std::string> two_warps_one_value(std::vector<std::string> extra) {
  std::vector<std::string> args = {"check",
                                   "--ptx",
                                   source_dir() +
                                       "/examples/kernels/soundness/c31_warp_store_one_value.ptx",
                                   "--kernel",
                                   "c31_warp_store_one_value",
                                   "--block",
                                   "64",
                                   "--array",
                                   "a:0x100000:4:2:in",
                                   "--array",
                                   "out:0x200000:4:64:out",
                                   "--param",
                                   "ptr:a",
                                   "--param",
                                   "ptr:out"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(RaceRule, EqualStoresOfTwoWarpsAreBenignByDefaultAndRacyWhenStrict) {
  const auto dir = scratch_dir("race_rule_flags");
  const ToolRun benign = run_tool(two_warps_one_value({"--report", "b.json"}), dir);
  EXPECT_EQ(benign.exit_code, 0) << benign.out << benign.err;
  EXPECT_NE(benign.out.find("RACE_FREE"), std::string::npos) << benign.out;
  EXPECT_EQ(read_json(dir / "b.json")["options"]["races"], "benign");
  const ToolRun explicit_benign = run_tool(two_warps_one_value({"--benign-races"}), dir);
  EXPECT_EQ(explicit_benign.exit_code, 0) << explicit_benign.out << explicit_benign.err;
  const ToolRun strict =
      run_tool(two_warps_one_value({"--strict-races", "--report", "s.json"}), dir);
  EXPECT_EQ(strict.exit_code, 1) << strict.out << strict.err;
  EXPECT_NE(strict.out.find("DATA_RACE"), std::string::npos) << strict.out;
  const json report = read_json(dir / "s.json");
  EXPECT_EQ(report["options"]["races"], "strict");
  EXPECT_EQ(report["results"][0]["verdict"], "DATA_RACE");
}

// An entry's "races" wins over the command line; an unknown word is the entry's located error.
TEST(RaceRule, AManifestEntryFixesItsOwnRule) {
  const auto dir = scratch_dir("race_rule_manifest");
  json m = read_json(source_dir() + "/examples/soundness/manifest.json");
  json kept = json::array();
  for (auto e : m["benchmarks"]) {
    const std::string name = e["name"];
    if (name != "c31_two_warps_store_one_value" && name != "c31_two_warps_store_one_value_strict")
      continue;
    e["kernel"]["ptx"] = source_dir() + "/examples/kernels/soundness/c31_warp_store_one_value.ptx";
    kept.push_back(e);
  }
  ASSERT_EQ(kept.size(), 2u);
  json bad = kept[0];
  bad["name"] = "bad_rule";
  bad["races"] = "lenient";
  kept.push_back(bad);
  m["benchmarks"] = kept;
  write_file(dir / "m.json", m.dump(1));
  for (const char* flag : {"--benign-races", "--strict-races"}) {
    const ToolRun r = run_tool({"check", "--batch", "m.json", flag, "--report", "r.json"}, dir);
    const json report = read_json(dir / "r.json");
    std::map<std::string, json> by_name;
    for (const auto& res : report["results"])
      by_name[res["name"]] = res;
    // The first entry has no "races": it follows the flag.
    EXPECT_EQ(by_name["c31_two_warps_store_one_value"]["verdict"],
              std::string(flag) == "--strict-races" ? "DATA_RACE" : "RACE_FREE")
        << flag;
    EXPECT_EQ(by_name["c31_two_warps_store_one_value_strict"]["verdict"], "DATA_RACE") << flag;
    EXPECT_EQ(by_name["bad_rule"]["verdict"], "ERROR") << flag;
    EXPECT_NE(by_name["bad_rule"]["detail"].get<std::string>().find(
                  "$.benchmarks[2].races: expected \"benign\" or \"strict\", got \"lenient\""),
              std::string::npos)
        << by_name["bad_rule"].dump(1);
    EXPECT_NE(r.exit_code, 0);
  }
}

} // namespace
} // namespace volta::cli_test
