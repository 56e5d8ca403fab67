// The converged-waits assumption through the binary (docs/cli.md, "Scheduling assumptions"):
// `--assume-converged-waits`, a manifest entry's "assume", the report's `assumptions`, the hint
// a refusal gives, and the caches, which never answer for the other assumption.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// FlashAttention-3's barrier_O shape (c46_converged_wait): every lane of the producer warp
// waits in one instruction, then lane 0 alone releases.
std::vector<std::string> converged_wait(std::vector<std::string> extra) {
  std::vector<std::string> args = {"check",
                                   "--ptx",
                                   source_dir() +
                                       "/examples/kernels/soundness/c46_converged_wait.ptx",
                                   "--kernel",
                                   "c46_converged_wait",
                                   "--block",
                                   "64",
                                   "--array",
                                   "a:0x100000:4:32:in:f32",
                                   "--array",
                                   "out:0x200000:4:32:out:f32",
                                   "--param",
                                   "ptr:a",
                                   "--param",
                                   "ptr:out"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// The soundness suite's c46_converged_wait_assumed_vs_plain, its PTX paths absolute.
json assumed_pair() {
  const json m = read_json(source_dir() + "/examples/soundness/manifest.json");
  for (json e : m["benchmarks"]) {
    if (e["name"] != "c46_converged_wait_assumed_vs_plain")
      continue;
    for (const char* role : {"reference", "optimized"}) {
      const std::string ptx = e[role]["ptx"];
      e[role]["ptx"] = source_dir() + "/examples/soundness/" + ptx;
    }
    return e;
  }
  ADD_FAILURE() << "c46_converged_wait_assumed_vs_plain is not in the soundness manifest";
  return json::object();
}

TEST(ConvergedWaits, TheFlagTurnsARefusalWithAHintIntoAVerdictThatSaysIt) {
  const auto dir = scratch_dir("converged_waits_flag");
  const ToolRun plain = run_tool(converged_wait({"--report", "p.json"}), dir);
  EXPECT_NE(plain.exit_code, 0) << plain.out << plain.err;
  const json p = read_json(dir / "p.json");
  EXPECT_EQ(p["results"][0]["verdict"], "UNSUPPORTED");
  EXPECT_EQ(p["results"][0]["assumptions"], json::array());
  EXPECT_EQ(p["options"]["assume"], json::array());
  EXPECT_NE(p["results"][0]["detail"].get<std::string>().find("--assume-converged-waits"),
            std::string::npos)
      << p["results"][0]["detail"];

  const ToolRun assumed =
      run_tool(converged_wait({"--assume-converged-waits", "--report", "a.json"}), dir);
  EXPECT_EQ(assumed.exit_code, 0) << assumed.out << assumed.err;
  EXPECT_NE(assumed.out.find("[assuming converged-waits]"), std::string::npos) << assumed.out;
  const json a = read_json(dir / "a.json");
  EXPECT_EQ(a["results"][0]["verdict"], "RACE_FREE");
  EXPECT_EQ(a["results"][0]["assumptions"], json::array({"converged-waits"}));
  EXPECT_EQ(a["options"]["assume"], json::array({"converged-waits"}));
}

TEST(ConvergedWaits, AManifestEntryFixesItsOwnAssumptionsWhereItSaysSo) {
  const auto dir = scratch_dir("converged_waits_manifest");
  json m = json::object();
  json kept = json::array({assumed_pair()});
  json none = kept[0];
  none["name"] = "assume_nothing";
  none["assume"] = json::array();
  none["expected"] = "UNSUPPORTED";
  json follows = kept[0];
  follows["name"] = "follows_the_flag";
  follows.erase("assume");
  follows.erase("expected");
  json not_a_list = kept[0];
  not_a_list["name"] = "not_a_list";
  not_a_list["assume"] = "converged-waits";
  json unknown = kept[0];
  unknown["name"] = "unknown";
  unknown["assume"] = json::array({"lockstep"});
  kept.push_back(none);
  kept.push_back(follows);
  kept.push_back(not_a_list);
  kept.push_back(unknown);
  m["benchmarks"] = kept;
  write_file(dir / "m.json", m.dump(1));
  for (bool flag : {false, true}) {
    std::vector<std::string> args = {"prove", "--batch", "m.json", "--report", "r.json"};
    if (flag)
      args.push_back("--assume-converged-waits");
    const ToolRun r = run_tool(args, dir);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err; // the bad entries
    const json report = read_json(dir / "r.json");
    std::map<std::string, json> by_name;
    for (const auto& res : report["results"])
      by_name[res["name"]] = res;
    EXPECT_EQ(by_name["c46_converged_wait_assumed_vs_plain"]["verdict"], "EQUIVALENT") << flag;
    EXPECT_EQ(by_name["assume_nothing"]["verdict"], "UNSUPPORTED") << flag;
    EXPECT_EQ(by_name["assume_nothing"]["assumptions"], json::array()) << flag;
    EXPECT_EQ(by_name["follows_the_flag"]["verdict"], flag ? "EQUIVALENT" : "UNSUPPORTED");
    EXPECT_NE(by_name["not_a_list"]["detail"].get<std::string>().find(
                  "$.benchmarks[3].assume: expected a list of assumptions"),
              std::string::npos)
        << by_name["not_a_list"].dump(1);
    EXPECT_NE(by_name["unknown"]["detail"].get<std::string>().find(
                  "$.benchmarks[4].assume[0]: unknown assumption \"lockstep\""),
              std::string::npos)
        << by_name["unknown"].dump(1);
  }
}

TEST(ConvergedWaits, TheCachesNeverAnswerForTheOtherAssumption) {
  const auto dir = scratch_dir("converged_waits_cache");
  json m = json::object();
  json e = assumed_pair();
  e.erase("assume"); // the command line's
  e.erase("expected");
  m["benchmarks"] = json::array({e});
  write_file(dir / "m.json", m.dump(1));
  for (int round = 0; round < 2; ++round) {
    run_tool({"prove", "--batch", "m.json", "--assume-converged-waits", "--cache", "c", "--report",
              "a.json"},
             dir);
    const json a = read_json(dir / "a.json")["results"][0];
    EXPECT_EQ(a["verdict"], "EQUIVALENT") << round << a.dump(1);
    EXPECT_EQ(a["cached"], round == 1) << round;
    run_tool({"prove", "--batch", "m.json", "--cache", "c", "--report", "p.json"}, dir);
    const json p = read_json(dir / "p.json")["results"][0];
    EXPECT_EQ(p["verdict"], "UNSUPPORTED") << round << p.dump(1);
    EXPECT_EQ(p["assumptions"], json::array()) << round;
  }
}

} // namespace
} // namespace volta::cli_test
