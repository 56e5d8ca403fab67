// A batch that does not repeat work (issue 34, entry/batch_runs.hpp): a kernel that several
// entries execute under one configuration runs once, and the report says which kernel runs were
// reused (`reused_from`). Every test here also attacks the key: entries whose kernels share the
// PTX and the array names but differ in an array's size, a parameter, the CTAs executed or the
// race rule must each execute their own run, and their verdicts stay those of a batch without
// the others.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string kernel_path(const std::string& name) {
  return source_dir() + "/examples/kernels/" + name;
}

// sum_serial (one thread sums in[0..n)), with `in` of `len` elements.
json sum_serial(int n, int len) {
  return {
      {"ptx", kernel_path("races/sum_serial.ptx")},
      {"entry", "sum_serial"},
      {"block", {1, 1, 1}},
      {"grid", {1, 1, 1}},
      {"arrays",
       {{{"name", "in"}, {"base", "0x100000"}, {"elem_width", 4}, {"len", len}, {"kind", "in"}},
        {{"name", "out"}, {"base", "0x200000"}, {"elem_width", 4}, {"len", 1}, {"kind", "out"}}}},
      {"params", {"ptr:in", "ptr:out", "int:" + std::to_string(n)}}};
}

// The naive or tiled 32x32 GEMM of the examples, with A of `a_len` elements.
json gemm(const std::string& which, int a_len = 1024) {
  auto array = [](const char* name, const char* base, int len, const char* kind) {
    return json{{"name", name}, {"base", base}, {"elem_width", 4}, {"len", len}, {"kind", kind}};
  };
  return {{"ptx", kernel_path("gemm/gemm_" + which + ".ptx")},
          {"entry", "gemm_" + which},
          {"block", {16, 16, 1}},
          {"grid", {2, 2, 1}},
          {"arrays",
           {array("A", "0x100000", a_len, "in"), array("B", "0x200000", 1024, "in"),
            array("C", "0x300000", 1024, "out")}},
          {"params", {"ptr:A", "ptr:B", "ptr:C"}}};
}

json pair(const std::string& name, json ref, json opt) {
  return {{"name", name}, {"kind", "equivalence"}, {"reference", ref}, {"optimized", opt}};
}

// Runs `entries` as one batch (CTA 0 of each launch unless an entry says otherwise, one worker
// unless `jobs`), returns the report's results.
json run_batch(const std::string& test, const json& entries, int jobs = 1) {
  const auto dir = scratch_dir(test);
  json manifest = {{"ctas", "first"}, {"benchmarks", entries}};
  write_file(dir / "m.json", manifest.dump(1));
  ToolRun run = run_tool({"prove", "--batch", "m.json", "--report", "r.json", "--no-progress", "-j",
                          std::to_string(jobs)},
                         dir);
  EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.err;
  return read_json(dir / "r.json")["results"];
}

const json& kernel(const json& result, const std::string& role) {
  for (const auto& k : result["kernels"]) {
    if (k["role"] == role)
      return k;
  }
  static const json none;
  ADD_FAILURE() << "no " << role << " kernel in " << result.dump();
  return none;
}

bool reused(const json& result, const std::string& role) {
  return !kernel(result, role)["reused_from"].is_null();
}

TEST(BatchRuns, AKernelSeveralEntriesExecuteRunsOnce) {
  const json results = run_batch("batch-runs-once", {pair("first", gemm("naive"), gemm("tiled")),
                                                     pair("same", gemm("naive"), gemm("naive")),
                                                     pair("again", gemm("naive"), gemm("tiled"))});
  ASSERT_EQ(results.size(), 3u);
  for (const auto& r : results)
    EXPECT_EQ(r["verdict"], "EQUIVALENT") << r.dump();
  // The first entry executes the naive GEMM; the others take its run.
  EXPECT_FALSE(reused(results[0], "reference"));
  EXPECT_EQ(kernel(results[1], "reference")["reused_from"], "first");
  EXPECT_EQ(kernel(results[2], "reference")["reused_from"], "first");
  // The same kernel and configuration on both sides of a pair: one run for both.
  EXPECT_EQ(kernel(results[1], "optimized")["reused_from"], "reference");
  // The tiled GEMM is executed by both entries that compare it (nothing shared by the batch
  // for it: each entry takes one side from the batch, the reference).
  EXPECT_FALSE(reused(results[2], "optimized"));
  // A reused run reports the counts of the execution that made it.
  EXPECT_EQ(kernel(results[2], "reference")["instructions"],
            kernel(results[0], "reference")["instructions"]);
}

TEST(BatchRuns, ParallelEntriesShareOneRun) {
  json entries = json::array();
  for (int i = 0; i < 4; ++i)
    entries.push_back(pair("e" + std::to_string(i), gemm("naive"), gemm("tiled")));
  const json results = run_batch("batch-runs-parallel", entries, 2);
  ASSERT_EQ(results.size(), 4u);
  int executed = 0;
  for (const auto& r : results) {
    EXPECT_EQ(r["verdict"], "EQUIVALENT") << r.dump();
    executed += !reused(r, "reference");
  }
  EXPECT_EQ(executed, 1) << "one entry executes the shared reference, the others wait for it";
}

TEST(BatchRuns, ArraysOfTheSameNamesButAnotherSizeAreNotShared) {
  // A of 256 elements: CTA 0 of the naive GEMM reads its first 16 rows, past the end.
  const json results =
      run_batch("batch-runs-sizes", {pair("full", gemm("naive"), gemm("tiled")),
                                     pair("short", gemm("naive", 256), gemm("tiled", 256)),
                                     pair("full again", gemm("naive"), gemm("tiled"))});
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]["verdict"], "EQUIVALENT");
  EXPECT_EQ(results[1]["verdict"], "OUT_OF_BOUNDS") << results[1].dump();
  EXPECT_EQ(results[2]["verdict"], "EQUIVALENT");
  EXPECT_FALSE(reused(results[1], "reference"));
  EXPECT_EQ(kernel(results[2], "reference")["reused_from"], "full");
  // The short entry alone gives the same answer.
  const json alone =
      run_batch("batch-runs-sizes-alone",
                json::array({pair("short", gemm("naive", 256), gemm("tiled", 256))}));
  EXPECT_EQ(alone[0]["verdict"], results[1]["verdict"]);
  EXPECT_EQ(alone[0]["detail"], results[1]["detail"]);
}

TEST(BatchRuns, AnotherParameterValueIsAnotherRun) {
  const json results =
      run_batch("batch-runs-params", {pair("64 vs 64", sum_serial(64, 128), sum_serial(64, 128)),
                                      pair("64 vs 32", sum_serial(64, 128), sum_serial(32, 128)),
                                      pair("32 vs 64", sum_serial(32, 128), sum_serial(64, 128))});
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]["verdict"], "EQUIVALENT");
  EXPECT_EQ(kernel(results[0], "optimized")["reused_from"], "reference");
  // n = 64 is shared between the first two entries' references; n = 32 is never taken for 64.
  EXPECT_EQ(kernel(results[1], "reference")["reused_from"], "64 vs 64");
  EXPECT_FALSE(reused(results[1], "optimized"));
  EXPECT_EQ(results[1]["verdict"], "NOT_EQUIVALENT") << results[1].dump();
  EXPECT_EQ(results[2]["verdict"], "NOT_EQUIVALENT") << results[2].dump();
  EXPECT_FALSE(reused(results[2], "optimized"));
}

TEST(BatchRuns, OtherCtasOrRaceRulesAreOtherRuns) {
  json all = pair("all CTAs", gemm("naive"), gemm("tiled"));
  all["reference"]["ctas"] = "all";
  all["optimized"]["ctas"] = "all";
  json strict = pair("strict", gemm("naive"), gemm("tiled"));
  strict["races"] = "strict";
  const json results =
      run_batch("batch-runs-modes", {pair("first CTA", gemm("naive"), gemm("tiled")), all, strict});
  ASSERT_EQ(results.size(), 3u);
  for (const auto& r : results) {
    EXPECT_EQ(r["verdict"], "EQUIVALENT") << r.dump();
    EXPECT_FALSE(reused(r, "reference")) << r["name"];
    EXPECT_FALSE(reused(r, "optimized")) << r["name"];
  }
  EXPECT_TRUE(kernel(results[1], "reference")["all_ctas"].get<bool>());
  EXPECT_FALSE(kernel(results[0], "reference")["all_ctas"].get<bool>());
}

TEST(BatchRuns, AKeptRunKeepsItsRace) {
  auto racy = [] {
    return json{
        {"ptx", kernel_path("races/reduce_racy.ptx")},
        {"entry", "reduce_racy"},
        {"block", {64, 1, 1}},
        {"grid", {1, 1, 1}},
        {"arrays",
         {{{"name", "in"}, {"base", "0x100000"}, {"elem_width", 4}, {"len", 64}, {"kind", "in"}},
          {{"name", "out"}, {"base", "0x200000"}, {"elem_width", 4}, {"len", 1}, {"kind", "out"}}}},
        {"params", {"ptr:in", "ptr:out"}}};
  };
  json ok = racy();
  ok["ptx"] = kernel_path("races/reduce_ok.ptx");
  ok["entry"] = "reduce_ok";
  const json results = run_batch("batch-runs-race", {pair("a", racy(), ok), pair("b", racy(), ok),
                                                     pair("itself", racy(), racy())});
  ASSERT_EQ(results.size(), 3u);
  for (const auto& r : results) {
    EXPECT_EQ(r["verdict"], "DATA_RACE") << r.dump();
    EXPECT_EQ(r["detail"], results[0]["detail"]);
    EXPECT_EQ(r["races"], results[0]["races"]);
  }
  EXPECT_EQ(kernel(results[1], "reference")["reused_from"], "a");
  EXPECT_EQ(kernel(results[2], "optimized")["reused_from"], "reference");
}

} // namespace
} // namespace volta::cli_test
