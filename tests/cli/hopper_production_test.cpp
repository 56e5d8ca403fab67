// The Hopper production manifest (../shared/production/hopper/manifest.json: CUTLASS 3.x's
// warp-specialized TMA + wgmma GEMM and FlashAttention-3, through their real entry points) by
// `volta-eg prove`, H01 to H07: the cluster-1 CUTLASS GEMM (H01) is EQUIVALENT and its mutant
// (H04) NOT_EQUIVALENT; every other entry ends UNSUPPORTED at the first instruction of the Hopper
// kernel the engine does not model (or a race it cannot confirm), with its PTX line — never a
// parse error, a crash, ERROR or another verdict — and the exit status is 1 (verdicts that differ
// from the expected ones, docs/cli.md). Labelled slow: the naive
// attention reference of the FA3 entries runs for minutes beside the refused kernel (one entry
// at a time: two of them at once took more memory than a 23 GiB machine had). H08 is left out:
// its reference (naive attention over 256x176, 128 CTAs) alone was killed for memory on that
// machine while its refused kernel waited; the H08 kernel itself is checked by
// HopperProduction.EveryKernelIsUnsupportedAtAnInstruction (hopper_launch_test.cpp). Skips with a
// message when ../shared/production/hopper is absent.
#include <cstdlib>
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

TEST(HopperProductionSlow, EveryEntryIsDecidedOrUnsupportedAtAnInstruction) {
  const auto dir = std::filesystem::path(source_dir()) / ".." / "shared" / "production" / "hopper";
  if (!std::filesystem::exists(dir / "manifest.json"))
    GTEST_SKIP() << dir << " is absent: the Hopper production kernels are not in this checkout";
  // Opt-in until a refused kernel stops its pair's other kernel: the FA3 entries' naive
  // references take minutes and most of a 24 GB machine, next to whatever ctest -j runs beside
  // them (every kernel is checked alone by HopperProduction.*, in the fast suite).
  if (std::getenv("VOLTA_HOPPER_SLOW") == nullptr)
    GTEST_SKIP() << "set VOLTA_HOPPER_SLOW=1 to prove H01-H07 (minutes, up to ~10 GB)";
  const auto scratch = scratch_dir("hopper-production-slow");
  const ToolRun r =
      run_tool({"prove", "--batch", (dir / "manifest.json").string(), "--no-z3", "--no-progress",
                "--filter", "^H0[1-7] ", "--report", (scratch / "r.json").string()},
               scratch, 1800);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const json report = read_json(scratch / "r.json");
  ASSERT_EQ(report["results"].size(), 5u) << report.dump(1);
  for (const json& e : report["results"]) {
    const std::string name = e.value("name", "");
    SCOPED_TRACE(name);
    if (name.starts_with("H01 ")) {
      EXPECT_EQ(e["verdict"], "EQUIVALENT") << e.dump(1);
      continue;
    }
    if (name.starts_with("H04 ")) {
      EXPECT_EQ(e["verdict"], "NOT_EQUIVALENT") << e.dump(1);
      continue;
    }
    EXPECT_EQ(e["verdict"], "UNSUPPORTED") << e.dump(1);
    ASSERT_TRUE(e.contains("safety") && e["safety"].is_object()) << e.dump(1);
    EXPECT_EQ(e["safety"].value("kernel", ""), "optimized") << e.dump(1);
    ASSERT_TRUE(e["safety"]["access"].is_object()) << e.dump(1);
    EXPECT_GT(e["safety"]["access"].value("ptx_line", 0), 0) << e.dump(1);
    EXPECT_FALSE(e["safety"]["access"].value("instruction", "").empty()) << e.dump(1);
  }
}

// FA3's cluster-1 entry and its mutant under --assume-converged-waits (docs/semantics.md,
// "Converged waits"): H05 EQUIVALENT, proved in groups of the naive reference's CTAs against
// FA3's whole grid (the two grids split differently, and the whole grid does not fit: anchored
// groups, "Streamed proofs over a whole grid"); H07 NOT_EQUIVALENT, its difference found in the
// first group at a point its exact values confirm. About four minutes.
TEST(HopperProductionSlow, Fa3IsEquivalentUnderTheConvergedWaitsAssumption) {
  const auto dir = std::filesystem::path(source_dir()) / ".." / "shared" / "production" / "hopper";
  if (!std::filesystem::exists(dir / "manifest.json"))
    GTEST_SKIP() << dir << " is absent: the Hopper production kernels are not in this checkout";
  if (std::getenv("VOLTA_HOPPER_SLOW") == nullptr)
    GTEST_SKIP() << "set VOLTA_HOPPER_SLOW=1 to prove H05 and H07 (minutes, up to ~5 GB)";
  const auto scratch = scratch_dir("hopper-production-fa3");
  const ToolRun r = run_tool({"prove", "--batch", (dir / "manifest.json").string(), "--no-z3",
                              "--no-progress", "--assume-converged-waits", "--filter", "^H0[57] ",
                              "--report", (scratch / "r.json").string()},
                             scratch, 1800);
  const json report = read_json(scratch / "r.json");
  ASSERT_EQ(report["results"].size(), 2u) << report.dump(1);
  for (const json& e : report["results"]) {
    const std::string name = e.value("name", "");
    SCOPED_TRACE(name);
    EXPECT_EQ(e["assumptions"], json::array({"converged-waits"})) << e.dump(1);
    if (name.starts_with("H05 ")) {
      EXPECT_EQ(e["verdict"], "EQUIVALENT") << e.dump(1);
      EXPECT_NE(e["detail"].get<std::string>().find("against the optimized kernel's whole grid"),
                std::string::npos)
          << e.dump(1);
    } else {
      EXPECT_EQ(e["verdict"], "NOT_EQUIVALENT") << e.dump(1);
      ASSERT_TRUE(e["counterexample"].is_object()) << e.dump(1);
      EXPECT_EQ(e["counterexample"].value("confirmed", false), true) << e.dump(1);
    }
  }
}

} // namespace
} // namespace volta::cli_test
