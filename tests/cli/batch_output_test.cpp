// What a batch prints: result lines and the summary table (golden files, times normalized),
// plain output without escape codes when stdout is not a terminal, and the single-pair modes.
#include <cstdlib>
#include <gtest/gtest.h>
#include <regex>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

TEST(BatchOutput, ProveDemoSubsetMatchesGolden) {
  ToolRun r = run_tool(
      {"prove", "--batch", "examples/manifest.json", "--filter", "gemm|reduce", "-j", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // How the elements were proved is the prover's business (and tested by its own tests).
  const std::string out = std::regex_replace(
      without_times(r.out), std::regex(R"(\d+ elements proved \(.*\))"), "N elements proved (...)");
  const std::string diff = golden_diff("prove_demo_subset.txt", out);
  EXPECT_TRUE(diff.empty()) << diff;
}

TEST(BatchOutput, CheckSafetySubsetMatchesGolden) {
  ToolRun r = run_tool({"check", "--batch", "examples/safety/manifest.json", "--filter",
                        "reduce_racy|oob_read|deadlock|uninitialized|data_dependent"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string diff = golden_diff("check_safety_subset.txt", without_times(r.out));
  EXPECT_TRUE(diff.empty()) << diff;
}

TEST(BatchOutput, PlainOutputHasNoEscapeCodesAndColorAlwaysHas) {
  ToolRun plain =
      run_tool({"check", "--batch", "examples/safety/manifest.json", "--filter", "reduce"});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out.find('\033'), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find('\r'), std::string::npos) << plain.out;
  ToolRun color = run_tool({"check", "--batch", "examples/safety/manifest.json", "--filter",
                            "reduce", "--color", "always"});
  EXPECT_EQ(color.exit_code, 0) << color.err;
  EXPECT_NE(color.out.find("\033[32mRACE_FREE"), std::string::npos) << color.out;
  // A live progress line is for terminals only, whatever the colors.
  EXPECT_EQ(color.out.find('\r'), std::string::npos);
}

TEST(BatchOutput, TerminalGetsALiveProgressLine) {
  if (std::system("command -v script >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no `script` to give the tool a terminal";
  const auto dir = scratch_dir("terminal");
  const std::string log = (dir / "typescript").string();
  const std::string cmd =
      "cd '" + source_dir() + "' && script -q -e -c \"'" + std::string(VOLTA_EG_BINARY) +
      "' prove --batch examples/manifest.json --filter gemm\" '" + log + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string out = read_file(log);
  EXPECT_NE(out.find("\r\033[K"), std::string::npos) << out;
  EXPECT_NE(out.find("running (gemm_naive, gemm_"), std::string::npos) << out;
  EXPECT_NE(out.find("2 entries: 2 as expected"), std::string::npos) << out;
}

TEST(BatchOutput, SinglePairFromAPairFile) {
  const auto dir = scratch_dir("pair");
  auto m = example_manifest("manifest.json");
  nlohmann::json pair = m["benchmarks"][0]; // (gemm_naive, gemm_tiled)
  write_file(dir / "pair.json", pair.dump());
  ToolRun r = run_tool({"prove", "--pair", "pair.json", "--report", "r.json"}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("EQUIVALENT"), std::string::npos);
  EXPECT_EQ(r.out.find("entries:"), std::string::npos) << "no summary table for one pair";
  auto report = read_json(dir / "r.json");
  EXPECT_EQ(report["results"][0]["verdict"], "EQUIVALENT");
  // Every CTA of the 2 x 2 grid: the whole 32 x 32 C.
  EXPECT_EQ(report["results"][0]["elements"]["total"], 1024);
}

TEST(BatchOutput, DifferentWrittenIndexSetsAreNotEquivalent) {
  // gemm_naive with a 16x8 block writes rows 0-7 of C's first tile, with 16x16 rows 0-15: the
  // first index only one of them writes is C[8 * 32] = C[256], whichever side writes less.
  const auto dir = scratch_dir("index-sets");
  auto m = example_manifest("manifest.json");
  nlohmann::json fewer = m["benchmarks"][0];
  fewer["name"] = "optimized writes fewer";
  fewer["expected"] = "NOT_EQUIVALENT";
  fewer["optimized"] = fewer["reference"];
  fewer["optimized"]["block"] = {16, 8, 1};
  nlohmann::json more = fewer;
  more["name"] = "optimized writes more";
  std::swap(more["reference"], more["optimized"]);
  nlohmann::json manifest = {{"benchmarks", {fewer, more}}};
  write_file(dir / "m.json", manifest.dump());
  ToolRun r = run_tool({"prove", "--batch", "m.json", "--report", "r.json"}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto results = read_json(dir / "r.json")["results"];
  ASSERT_EQ(results.size(), 2u);
  for (const auto& e : results) {
    EXPECT_EQ(e["verdict"], "NOT_EQUIVALENT") << e.dump();
    EXPECT_EQ(e["counterexample"]["element"], "C[256]") << e.dump();
  }
  EXPECT_EQ(results[0]["detail"],
            "C[256] is written by the reference kernel but not by the optimized kernel");
  EXPECT_EQ(results[0]["counterexample"]["optimized_value"], "(not written)");
  EXPECT_EQ(results[1]["detail"],
            "C[256] is written by the optimized kernel but not by the reference kernel");
  EXPECT_EQ(results[1]["counterexample"]["reference_value"], "(not written)");
}

TEST(BatchOutput, SingleKernelFromFlags) {
  ToolRun r = run_tool({"check", "--ptx", "examples/kernels/races/reduce_racy.ptx", "--kernel",
                        "reduce_racy", "--block", "64", "--array", "in:0x100000:4:64:in", "--array",
                        "out:0x200000:4:1:out", "--param", "ptr:in", "--param", "ptr:out"});
  EXPECT_EQ(r.exit_code, 1) << r.err; // a race, and no expectation
  EXPECT_NE(r.out.find("DATA_RACE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("expected RACE_FREE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("examples/kernels/races/reduce_racy.cu:17"), std::string::npos) << r.out;
}

// A branch decided over the reals on a quotient: x/y == x/y holds for every defined value, but
// on y = 0 the device compares a NaN and takes the other path. A race check has no reference
// whose domain could exclude that input, so it claims no RACE_FREE, with or without
// --print-outputs (which runs the same check and then shows the values).
TEST(BatchOutput, NoRaceFreeOnABranchDecidedOnAPartialValue) {
  const auto dir = scratch_dir("partial-branch");
  write_file(dir / "k.ptx", R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
  .reg .pred %p<2>;
  .reg .f32 %f<4>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p_in];
  ld.param.u64 %rd2, [p_out];
  ld.global.f32 %f1, [%rd1];
  ld.global.f32 %f2, [%rd1+4];
  div.rn.f32 %f3, %f1, %f2;
  setp.eq.f32 %p1, %f3, %f3;
  selp.u32 %r1, 1, 2, %p1;
  @%p1 bra DONE;
  st.global.u32 [%rd2], %r1;
DONE:
  ret;
}
)");
  for (const bool print : {false, true}) {
    std::vector<std::string> args = {"check",
                                     "--ptx",
                                     "k.ptx",
                                     "--kernel",
                                     "k",
                                     "--array",
                                     "in:0x100000:4:2:in",
                                     "--array",
                                     "out:0x200000:4:1:zero",
                                     "--param",
                                     "ptr:in",
                                     "--param",
                                     "ptr:out"};
    if (print)
      args.insert(args.end(), {"--print-outputs", "1"});
    ToolRun r = run_tool(args, dir);
    EXPECT_EQ(r.out.rfind("UNKNOWN ", 0), 0u) << print << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("no RACE_FREE is claimed"), std::string::npos) << print << "\n" << r.out;
  }
}

} // namespace
} // namespace volta::cli_test
