// --cache DIR, its entry and execution parts: a second run of an unchanged batch answers every
// entry from the cache with the same results; a changed kernel is executed and proved again
// while the unchanged one is read back; a changed option misses; damaged files are ignored with
// a warning and written again, never trusted.
#include <algorithm>
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The demo manifest with its PTX files copied into `dir`, so that a test may change them.
void copy_demo(const fs::path& dir) {
  json manifest = example_manifest("manifest.json");
  for (auto& entry : manifest["benchmarks"]) {
    for (const char* role : {"reference", "optimized", "kernel"}) {
      if (!entry.contains(role))
        continue;
      const fs::path ptx = entry[role]["ptx"].get<std::string>();
      if (!fs::exists(dir / ptx.filename()))
        fs::copy_file(ptx, dir / ptx.filename());
      entry[role]["ptx"] = ptx.filename().string();
    }
  }
  write_file(dir / "m.json", manifest.dump(1));
}

ToolRun prove(const fs::path& dir, const std::string& report, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"prove", "--batch",  "m.json", "--cache",
                                   "cache", "--report", report,   "--no-progress"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_tool(args, dir);
}

// A result without what may differ between a computed and a cached answer.
json comparable(json result) {
  for (const char* key : {"seconds", "phases", "cached", "original_seconds"})
    result.erase(key);
  for (auto& k : result["kernels"]) {
    k.erase("seconds");
    k.erase("cached");
    // How this invocation got the run (another entry of the batch executed it): a result read
    // from the cache was not executed at all (docs/report-schema.md).
    k.erase("reused_from");
  }
  return result;
}

TEST(ExecutionCache, UnchangedBatchIsAnsweredFromTheCache) {
  const auto dir = scratch_dir("exec-cache-hit");
  copy_demo(dir);
  ToolRun first = prove(dir, "r1.json");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const json r1 = read_json(dir / "r1.json");
  EXPECT_EQ(r1["cache"]["entries"]["stored"], r1["results"].size());
  EXPECT_GT(r1["cache"]["executions"]["stored"].get<uint64_t>(), 0u);

  ToolRun second = prove(dir, "r2.json");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.err, "");
  const json r2 = read_json(dir / "r2.json");
  EXPECT_EQ(r2["cache"]["entries"]["hits"], r1["results"].size());
  EXPECT_EQ(r2["cache"]["executions"]["hits"], 0) << "nothing was executed";
  ASSERT_EQ(r1["results"].size(), r2["results"].size());
  for (size_t i = 0; i < r1["results"].size(); ++i) {
    EXPECT_TRUE(r2["results"][i]["cached"].get<bool>());
    EXPECT_FALSE(r1["results"][i]["cached"].get<bool>());
    EXPECT_EQ(comparable(r1["results"][i]), comparable(r2["results"][i]));
  }
  // The wrong GEMM keeps its counterexample, the racy reduction its race.
  EXPECT_EQ(r2["results"][4]["verdict"], "NOT_EQUIVALENT");
  EXPECT_TRUE(r2["results"][4].contains("counterexample"));
  EXPECT_EQ(r2["results"][3]["verdict"], "DATA_RACE");
  EXPECT_NE(second.out.find("5 entries answered from the cache"), std::string::npos) << second.out;
}

TEST(ExecutionCache, ChangedKernelRunsAgainBesideItsCachedPartner) {
  const auto dir = scratch_dir("exec-cache-changed");
  copy_demo(dir);
  ASSERT_EQ(prove(dir, "r1.json", {"--filter", "gemm_tiled"}).exit_code, 0);
  // A comment changes the optimized kernel's bytes, not its meaning.
  const json manifest = read_json(dir / "m.json");
  const std::string tiled = manifest["benchmarks"][0]["optimized"]["ptx"];
  write_file(dir / tiled, read_file(dir / tiled) + "\n// candidate 2\n");
  ToolRun second = prove(dir, "r2.json", {"--filter", "gemm_tiled"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  const json r2 = read_json(dir / "r2.json");
  EXPECT_EQ(r2["cache"]["entries"]["hits"], 0);
  EXPECT_EQ(r2["cache"]["executions"]["hits"], 1) << "the reference is read back";
  const json& e = r2["results"][0];
  EXPECT_EQ(e["verdict"], "EQUIVALENT");
  EXPECT_FALSE(e["cached"].get<bool>());
  EXPECT_TRUE(e["kernels"][0]["cached"].get<bool>());
  EXPECT_FALSE(e["kernels"][1]["cached"].get<bool>());
}

TEST(ExecutionCache, ChangedOptionsMiss) {
  const auto dir = scratch_dir("exec-cache-options");
  copy_demo(dir);
  ASSERT_EQ(prove(dir, "r1.json", {"--filter", "softmax"}).exit_code, 0);
  ASSERT_EQ(prove(dir, "r2.json", {"--filter", "softmax", "--no-reuse"}).exit_code, 0);
  EXPECT_EQ(read_json(dir / "r2.json")["cache"]["entries"]["hits"], 0);
  // A guard is not an option the result depends on: a longer time limit still hits.
  ASSERT_EQ(prove(dir, "r3.json", {"--filter", "softmax", "--timeout", "500"}).exit_code, 0);
  EXPECT_EQ(read_json(dir / "r3.json")["cache"]["entries"]["hits"], 1);
}

// A race check with several distinct races: both caches keep the whole list (`races`), not only
// the first race.
TEST(ExecutionCache, EveryDistinctRaceIsKeptByBothCaches) {
  const auto dir = scratch_dir("exec-cache-races");
  json manifest = example_manifest("soundness/manifest.json");
  json entries = json::array();
  for (auto& e : manifest["benchmarks"]) {
    if (e["name"] != "c8_two_distinct_races")
      continue;
    const fs::path ptx = e["kernel"]["ptx"].get<std::string>();
    fs::copy_file(ptx, dir / ptx.filename());
    e["kernel"]["ptx"] = ptx.filename().string();
    entries.push_back(e);
  }
  ASSERT_EQ(entries.size(), 1u);
  manifest["benchmarks"] = entries;
  write_file(dir / "m.json", manifest.dump(1));

  ASSERT_EQ(prove(dir, "r1.json").exit_code, 0);
  const json computed = read_json(dir / "r1.json")["results"][0];
  ASSERT_EQ(computed["verdict"], "DATA_RACE");
  ASSERT_GE(computed["races"].size(), 2u) << computed.dump(1);
  EXPECT_EQ(computed["races"][0], computed["safety"]);

  // The entry cache answers...
  ASSERT_EQ(prove(dir, "r2.json").exit_code, 0);
  const json r2 = read_json(dir / "r2.json");
  EXPECT_EQ(r2["cache"]["entries"]["hits"], 1);
  EXPECT_EQ(comparable(r2["results"][0]), comparable(computed));
  // ... and, with an option that misses it, the execution cache.
  ASSERT_EQ(prove(dir, "r3.json", {"--no-reuse"}).exit_code, 0);
  const json r3 = read_json(dir / "r3.json");
  EXPECT_EQ(r3["cache"]["entries"]["hits"], 0);
  EXPECT_EQ(r3["cache"]["executions"]["hits"], 1);
  EXPECT_EQ(r3["results"][0]["races"], computed["races"]);
  EXPECT_EQ(r3["results"][0]["races_truncated"], computed["races_truncated"]);
  EXPECT_EQ(r3["results"][0]["detail"], computed["detail"]);
}

std::vector<fs::path> files_under(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& f : fs::recursive_directory_iterator(dir))
    if (f.is_regular_file())
      files.push_back(f.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ExecutionCache, DamagedFilesAreIgnoredAndWrittenAgain) {
  const auto dir = scratch_dir("exec-cache-damaged");
  copy_demo(dir);
  ASSERT_EQ(prove(dir, "r1.json").exit_code, 0);
  const auto entries = files_under(dir / "cache" / "entries");
  const auto runs = files_under(dir / "cache" / "runs");
  ASSERT_GE(entries.size(), 2u);
  ASSERT_GE(runs.size(), 2u);
  // One flipped byte in the middle of an entry and of every run, one truncated entry.
  std::string text = read_file(entries[0]);
  text[text.size() / 2] ^= 0x20;
  write_file(entries[0], text);
  write_file(entries[1], read_file(entries[1]).substr(0, 30));
  for (const auto& run : runs) {
    std::string bytes = read_file(run);
    bytes[bytes.size() / 2] ^= 0x01;
    write_file(run, bytes);
  }
  ToolRun second = prove(dir, "r2.json");
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.err.find("warning: ignoring damaged entry-cache file"), std::string::npos)
      << second.err;
  EXPECT_NE(second.err.find("warning: ignoring damaged execution-cache file"), std::string::npos)
      << second.err;
  const json r1 = read_json(dir / "r1.json"), r2 = read_json(dir / "r2.json");
  for (size_t i = 0; i < r1["results"].size(); ++i)
    EXPECT_EQ(r1["results"][i]["verdict"], r2["results"][i]["verdict"]);
  EXPECT_EQ(r2["cache"]["entries"]["ignored"], 2);
  EXPECT_EQ(r2["cache"]["entries"]["stored"], 2) << "the damaged entries are written again";

  ToolRun third = prove(dir, "r3.json");
  EXPECT_EQ(third.err, "") << "repaired";
  EXPECT_EQ(read_json(dir / "r3.json")["cache"]["entries"]["hits"], r1["results"].size());
}

} // namespace
} // namespace volta::cli_test
