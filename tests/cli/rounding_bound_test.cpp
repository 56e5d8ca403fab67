// The bound on the rounding error (entry/rounding_bounds.hpp) through `volta-eg prove`: reported
// per array where the manifest gives input ranges (examples/float/bounds.json), absent without
// them, and sound against the emulator: the tiled and the naive GEMM run on inputs drawn from the
// ranges store values never further apart than the bound says.
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <random>

#include "cli_test_util.hpp"
#include "engine/emulate/npy.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

const json* entry_named(const json& report, const std::string& name) {
  for (const auto& r : report["results"]) {
    if (r["name"] == name)
      return &r;
  }
  return nullptr;
}

const json* array_bound(const json& entry, const std::string& array) {
  for (const auto& t : entry["output_types"]) {
    if (t["array"] == array)
      return &t["rounding_bound"];
  }
  return nullptr;
}

std::vector<float> read_f32(const std::filesystem::path& path) {
  const auto a = emulate::read_npy(path.string());
  EXPECT_TRUE(a.has_value()) << path;
  std::vector<float> v(a ? a->count : 0);
  if (a)
    std::memcpy(v.data(), a->bytes.data(), v.size() * 4);
  return v;
}

TEST(RoundingBound, ReportedWithRangesAndHoldsOnTheEmulator) {
  const auto scratch = scratch_dir("rounding-bound");
  const ToolRun r = run_tool({"prove", "--batch", "examples/float/bounds.json", "--no-progress",
                              "--report", (scratch / "r.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = read_json(scratch / "r.json");

  // Without ranges (the same pair in examples/float/manifest.json): no bound.
  const ToolRun plain_run = run_tool({"prove", "--batch", "examples/float/manifest.json",
                                      "--no-progress", "--report", (scratch / "p.json").string()});
  ASSERT_EQ(plain_run.exit_code, 0) << plain_run.out << plain_run.err;
  const json plain_report = read_json(scratch / "p.json");
  const json* plain = entry_named(plain_report, "(copy_ref, add_sub_big)");
  ASSERT_NE(plain, nullptr);
  EXPECT_TRUE(array_bound(*plain, "y")->is_null());
  // The cancellation: y = x is exact, (x + 1e20f) - 1e20f rounds x + 1e20f (ulp 2^43 / 2).
  const json* cancel = entry_named(report, "(copy_ref, add_sub_big) over x in [-1, 1]");
  ASSERT_NE(cancel, nullptr);
  const json& cb = *array_bound(*cancel, "y");
  EXPECT_EQ(cb["reference"].get<double>(), 0.0);
  EXPECT_GT(cb["optimized"].get<double>(), std::ldexp(1.0, 42));
  EXPECT_EQ(cb["bounded"], 64);
  EXPECT_NE(r.out.find("rounding bound over the input ranges: y: the kernels' stores at most"),
            std::string::npos);

  const std::string gemm = "(gemm_naive, gemm_tiled) over A, B in [-1, 1]";
  const json* g = entry_named(report, gemm);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ((*g)["verdict"], "EQUIVALENT");
  const json& gb = *array_bound(*g, "C");
  ASSERT_TRUE(gb.is_object()) << g->dump(1);
  EXPECT_EQ(gb["bounded"], 1024);
  EXPECT_EQ(gb["unbounded"], 0);
  const double apart = gb["apart"].get<double>();
  // 32 products of [-1, 1] values, each kernel within about 32 * 32 * 2^-24 of the real sum.
  EXPECT_GT(apart, 1e-6);
  EXPECT_LT(apart, 1e-3);

  // Both kernels on the emulator with A, B drawn from [-1, 1] (the ends included), against each
  // other and against the real product (in long double: 32 exact products of floats, summed
  // far below the bound's scale).
  const double reference_bound = gb["reference"].get<double>();
  const double optimized_bound = gb["optimized"].get<double>();
  double worst_real[2] = {0, 0};
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  double worst = 0;
  for (int trial = 0; trial < 8; ++trial) {
    json inputs;
    std::vector<float> ab[2];
    for (int k = 0; k < 2; ++k) {
      std::vector<float>& v = ab[k];
      v.resize(1024);
      for (size_t i = 0; i < v.size(); ++i)
        v[i] = trial % 4 == 0 ? (i % 2 ? 1.0f : -1.0f) : dist(rng);
      inputs[k == 0 ? "A" : "B"] = v;
    }
    write_file(scratch / "inputs.json", inputs.dump());
    std::vector<float> out[2];
    for (int side = 0; side < 2; ++side) {
      const auto dir = scratch / fmt::format("out{}", side);
      const ToolRun run =
          run_tool({"run", "--batch", "examples/float/bounds.json", "--filter",
                    "gemm_naive, gemm_tiled", "--side", side ? "opt" : "ref", "--inputs",
                    (scratch / "inputs.json").string(), "--out", dir.string(), "--show", "0"});
      ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
      out[side] = read_f32(dir / "C.npy");
    }
    ASSERT_EQ(out[0].size(), 1024u);
    ASSERT_EQ(out[1].size(), 1024u);
    for (size_t i = 0; i < 1024; ++i) {
      worst = std::max(worst, std::fabs(double{out[0][i]} - double{out[1][i]}));
      long double real = 0; // C[row][col] = sum_k A[row][k] B[k][col], 32 x 32 x 32
      for (size_t k = 0; k < 32; ++k)
        real += static_cast<long double>(ab[0][i / 32 * 32 + k]) * ab[1][k * 32 + i % 32];
      for (int side = 0; side < 2; ++side)
        worst_real[side] =
            std::max(worst_real[side], static_cast<double>(std::fabs(out[side][i] - real)));
    }
  }
  EXPECT_LE(worst, apart) << "the emulator's stores are further apart than the bound";
  EXPECT_LE(worst_real[0], reference_bound);
  EXPECT_LE(worst_real[1], optimized_bound);
  // Rounding shows: the stores are not the real products (the bound is not vacuous either).
  EXPECT_GT(worst_real[0], 0.0);
  EXPECT_GT(worst_real[0] * 1000, reference_bound);
}

// `--input-range LO,HI`: the range of every input array without one (and of every symbolic
// parameter), the same bound as the manifest's "range"; a malformed range is bad input.
TEST(RoundingBound, TheInputRangeFlag) {
  const auto scratch = scratch_dir("rounding-bound-flag");
  const ToolRun r =
      run_tool({"prove", "--batch", "examples/manifest.json", "--filter", "gemm_naive, gemm_tiled",
                "--input-range=-1,1", "--no-progress", "--report", (scratch / "r.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = read_json(scratch / "r.json");
  const json* g = entry_named(report, "(gemm_naive, gemm_tiled)");
  ASSERT_NE(g, nullptr);
  const json& gb = *array_bound(*g, "C");
  ASSERT_TRUE(gb.is_object()) << g->dump(1);
  EXPECT_EQ(gb["bounded"], 1024);
  const ToolRun ranged =
      run_tool({"prove", "--batch", "examples/float/bounds.json", "--filter", "gemm",
                "--no-progress", "--report", (scratch / "b.json").string()});
  ASSERT_EQ(ranged.exit_code, 0) << ranged.out << ranged.err;
  const json ranged_report = read_json(scratch / "b.json");
  const json* b = entry_named(ranged_report, "(gemm_naive, gemm_tiled) over A, B in [-1, 1]");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(gb["apart"], (*array_bound(*b, "C"))["apart"]);
  // The manifest's "range": located, exit status 2.
  json m = read_json(std::filesystem::path(source_dir()) / "examples" / "float" / "bounds.json");
  for (auto& e : m["benchmarks"])
    for (const char* side : {"reference", "optimized"})
      e[side]["ptx"] = source_dir() + "/examples/float/" + e[side]["ptx"].get<std::string>();
  for (const json& range : {json::array({2, 1}), json::array({0}), json("x")}) {
    m["benchmarks"][0]["reference"]["arrays"][0]["range"] = range;
    write_file(scratch / "bad.json", m.dump(1));
    const ToolRun e = run_tool({"prove", "--batch", (scratch / "bad.json").string()});
    EXPECT_EQ(e.exit_code, 2) << range.dump() << ": " << e.out << e.err;
    EXPECT_NE(e.err.find("bad.json:"), std::string::npos) << e.err;
    EXPECT_NE(e.err.find("arrays[0].range"), std::string::npos) << e.err;
  }
  for (const char* bad :
       {"--input-range=1,-1", "--input-range=1", "--input-range=a,b", "--input-range=0,inf"}) {
    const ToolRun e = run_tool({"prove", "--batch", "examples/manifest.json", bad});
    EXPECT_EQ(e.exit_code, 2) << bad << ": " << e.out << e.err;
    EXPECT_NE(e.err.find("--input-range"), std::string::npos) << e.err;
  }
}

} // namespace
} // namespace volta::cli_test
