// cp.async.bulk.tensor tile loads (TMA) in the symbolic CTA (engine/exec/exec_tensor_load.cpp,
// tensor_copy.hpp): the box's elements land in shared memory as the global inputs they are,
// out-of-bounds elements as zeros, swizzled by the map; the complete_tx of the box's bytes
// completes the mbarrier phase; a read of the tile not ordered after that phase is a DATA_RACE;
// an expect_tx byte count that is not the box's never passes. The emulator's side:
// tests/emulate/emulate_tensor_load_test.cpp.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

#include "engine/exec/lower.hpp"
#include "engine/exec/tma_box.hpp"
#include "ptx/parser.hpp"
#include "tests/support/engine_test_util.hpp"
#include "tests/support/tensor_load_kernels.hpp"

namespace volta::etest {
namespace {

using tma_test::TileKernel;

// 64 threads; A is `len` f32 inputs at 0x200000; out 64 f32.
KernelConfig tile_config(const launch::TensorMap& map, uint64_t len, uint32_t threads = 64) {
  Launch l;
  l.block = {threads, 1, 1};
  l.arrays = {"A:0x200000:4:" + std::to_string(len) + ":in",
              "out:0x100000:4:" + std::to_string(threads) + ":out"};
  l.params = {"ptr:out"};
  KernelConfig c = make_config(l);
  c.params.insert(c.params.begin(), tma_test::map_param(map));
  return c;
}

TEST(TensorLoad, TheBoxLandsWithZerosOutsideTheGlobalDims) {
  // A is 5 rows of 6 valid floats, rows 32 bytes (8 floats) apart; the 8x8 box at (0, 0) holds
  // A[y*8+x] for x < 6, y < 5 and zeros elsewhere.
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  const auto r = run_ptx(tma_test::tile_kernel(TileKernel{}), tile_config(map, 40));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t x = t % 8, y = t / 8;
    const std::string expected = x < 6 && y < 5 ? "A[" + std::to_string(y * 8 + x) + "]" : "0";
    EXPECT_EQ(r.expr("out", t), expected) << t;
  }
}

TEST(TensorLoad, PrefetchesOfTheMapAndTheTensorHaveNoEffect) {
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  TileKernel k;
  k.early = "  prefetch.tensormap [%rd2];\n  cp.async.bulk.prefetch.tensor.2d.L2.global [%rd2, {7, "
            "1}];";
  const auto r = run_ptx(tma_test::tile_kernel(k), tile_config(map, 40));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 9), "A[9]");
}

TEST(TensorLoad, NegativeCoordinatesFillTheLeadingElements) {
  // The box at (-2, -1): element (x, y) is A at (x-2, y-1).
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  TileKernel k;
  k.coords = "-2, -1";
  const auto r = run_ptx(tma_test::tile_kernel(k), tile_config(map, 40));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < 64; ++t) {
    const int gx = static_cast<int>(t % 8) - 2, gy = static_cast<int>(t / 8) - 1;
    const bool inside = gx >= 0 && gx < 6 && gy >= 0 && gy < 5;
    EXPECT_EQ(r.expr("out", t), inside ? "A[" + std::to_string(gy * 8 + gx) + "]" : "0") << t;
  }
}

TEST(TensorLoad, ASwizzledBoxIsLaidOutByTheSwizzle) {
  // A 32x8 f32 box under the 128-byte swizzle (1024 bytes at shared 0): the float at linear
  // shared address 4t is box element tma_swizzle(4t)/4.
  const auto map = tma_test::f32_map(32, 8, 128, 32, 8, tma_test::kSwizzle128B);
  TileKernel k;
  k.tile_bytes = 1024;
  k.expect_tx = 1024;
  const auto r = run_ptx(tma_test::tile_kernel(k), tile_config(map, 256, 256));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < 256; ++t) {
    const uint64_t element = exec::tma_swizzle(tma_test::kSwizzle128B, 4 * t) / 4;
    EXPECT_EQ(r.expr("out", t), "A[" + std::to_string(element) + "]") << t;
  }
  EXPECT_NE(exec::tma_swizzle(tma_test::kSwizzle128B, 4 * 40), 4u * 40); // the test swizzles
}

TEST(TensorLoad, ReadingTheTileBeforeTheWaitIsARace) {
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  TileKernel k;
  k.early = "  ld.shared.f32 %f3, [%r9];";
  const auto r = run_ptx(tma_test::tile_kernel(k), tile_config(map, 40));
  EXPECT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
  ASSERT_NE(r.failure(), nullptr);
  EXPECT_NE(r.failure()->message.find("tensor load"), std::string::npos) << r.describe();
}

TEST(TensorLoad, ReadingTheTileWithoutWaitingIsARace) {
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  TileKernel k;
  k.wait = false;
  const auto r = run_ptx(tma_test::tile_kernel(k), tile_config(map, 40));
  EXPECT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
}

TEST(TensorLoad, ACtaBarrierInsteadOfTheWaitIsARace) {
  // Thread 0's copy completes phase 0 at its issue in the engine's schedule; a bar.sync after
  // it orders nothing after the copy's landing (no thread saw the phase complete before it).
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  TileKernel k;
  k.wait = false;
  k.early = "  bar.sync 0;";
  std::string text = tma_test::tile_kernel(k);
  // The threads other than 0 reach the same bar.sync: put it after $L_wait for all of them.
  text.replace(text.find("  bar.sync 0;\n$L_wait:"), 22, "$L_wait:\n  bar.sync 0;");
  const auto r = run_ptx(text, tile_config(map, 40));
  EXPECT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
}

TEST(TensorLoad, AWaitThenACtaBarrierOrdersEveryThread) {
  // Thread 0 alone waits for the phase, then bar.sync: every thread reads after the landing.
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  TileKernel k;
  k.wait = false;
  k.early = "$L_w0:\n  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;\n  @!%p1 bra "
            "$L_w0;";
  std::string text = tma_test::tile_kernel(k);
  text.replace(text.find("$L_wait:\n"), 9, "$L_wait:\n  bar.sync 0;\n");
  const auto r = run_ptx(text, tile_config(map, 40));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 9), "A[9]");
}

TEST(TensorLoad, AGenericStoreToTheDestinationBeforeTheCopyIsRefused) {
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  std::string text = tma_test::tile_kernel(TileKernel{});
  text.replace(text.find("  mov.u64 %rd1, k_param_0;"), 0, "  st.shared.u32 [%r9+8], 0;\n");
  const auto r = run_ptx(text, tile_config(map, 40));
  EXPECT_EQ(r.verdict(), Verdict::Unsupported) << r.describe();
  ASSERT_NE(r.failure(), nullptr);
  EXPECT_NE(r.failure()->message.find("generic proxy"), std::string::npos) << r.describe();
}

TEST(TensorLoad, ABufferRefilledAfterItsPhaseWasWaitedForIsNoRace) {
  // One thread, one tile, two phases: load (0, 0), wait phase 0, read; load (0, 1) into the
  // same tile, wait phase 1, read. The refill is ordered after the wait of the first load.
  const auto map = tma_test::f32_map(8, 2, 32, 8, 1);
  const std::string text = R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .align 64 .b8 k_param_0[128], .param .u64 p_out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  .shared .align 1024 .b8 tile[32];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, bar;
  mov.u32 %r9, tile;
  mov.u32 %r2, 0;
  mov.u32 %r3, 1;
  mbarrier.init.shared::cta.b64 [%r1], 1;
  mov.u64 %rd1, k_param_0;
  cvta.param.u64 %rd2, %rd1;
  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1], 32;
  cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [%r9], [%rd2, {%r2, %r2}], [%r1];
$L_w0:
  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;
  @!%p1 bra $L_w0;
  ld.shared.f32 %f1, [%r9+4];
  st.global.f32 [%rd0], %f1;
  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1], 32;
  cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [%r9], [%rd2, {%r2, %r3}], [%r1];
$L_w1:
  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 1;
  @!%p1 bra $L_w1;
  ld.shared.f32 %f2, [%r9+4];
  st.global.f32 [%rd0+4], %f2;
  ret;
}
)";
  KernelConfig c = tile_config(map, 16, 1);
  c.arrays[1].len = 2; // out[0], out[1]
  const auto r = run_ptx(text, c);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "A[1]");
  EXPECT_EQ(r.expr("out", 1), "A[9]");
}

TEST(TensorLoad, AnExpectTxAboveTheBoxBytesIsADeadlock) {
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  TileKernel k;
  k.expect_tx = 512;
  const auto r = run_ptx(tma_test::tile_kernel(k), tile_config(map, 40));
  EXPECT_EQ(r.verdict(), Verdict::Deadlock) << r.describe();
}

TEST(TensorLoad, AnExpectTxBelowTheBoxBytesNeverPasses) {
  // 128 of 256 bytes expected: the complete_tx overshoots, the phase never completes (the
  // hardware could complete it early in another schedule: never a clean run).
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  TileKernel k;
  k.expect_tx = 128;
  const auto r = run_ptx(tma_test::tile_kernel(k), tile_config(map, 40));
  EXPECT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_NE(r.verdict(), Verdict::RaceFree);
}

TEST(TensorLoad, AMapLargerThanItsArrayIsAnOutOfBoundsRead) {
  // The map claims 6 rows; the array holds 5 rows of 8 floats.
  const auto map = tma_test::f32_map(6, 6, 32, 8, 8);
  const auto r = run_ptx(tma_test::tile_kernel(TileKernel{}), tile_config(map, 40));
  EXPECT_EQ(r.verdict(), Verdict::OutOfBounds) << r.describe();
}

TEST(TensorLoad, AnAddressThatIsNoTensorMapIsRefused) {
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  std::string text = tma_test::tile_kernel(TileKernel{});
  text.replace(text.find("mov.u64 %rd1, k_param_0;"), 24, "mov.u64 %rd1, p_out;   ");
  const auto r = run_ptx(text, tile_config(map, 40));
  EXPECT_EQ(r.verdict(), Verdict::Unsupported) << r.describe();
  ASSERT_NE(r.failure(), nullptr);
  EXPECT_NE(r.failure()->message.find("no tensor-map field"), std::string::npos) << r.describe();
}

TEST(TensorLoad, MulticastAndIm2colStayRefusedWithTheirReason) {
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  const std::string form =
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes";
  for (const auto& [replacement, operands, reason] :
       {std::tuple<std::string, std::string, std::string>{
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes."
            "multicast::cluster",
            "[%r1], %h1;", "multicast"},
        {"cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes",
         "[%r1], {%h1};", "im2col"}}) {
    SCOPED_TRACE(reason);
    std::string text = tma_test::tile_kernel(TileKernel{});
    text.replace(text.find(form), form.size(), replacement);
    if (reason == "im2col")
      text.replace(text.find("{0, 0}"), 6, "{0, 0, 0}");
    text.replace(text.find("[%r1];\n\n$L_wait"), 6, operands);
    const auto r = run_ptx(text, tile_config(map, 40));
    EXPECT_EQ(r.verdict(), Verdict::Unsupported) << r.describe();
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_NE(r.failure()->message.find(reason), std::string::npos) << r.describe();
  }
}

TEST(TensorLoad, TheCutlassHopperGemmsTmaLoadsLowerToTensorLoads) {
  // CUTLASS 3.x's warp-specialized GEMM (../shared/production/hopper, never committed): its
  // loads are `cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes
  // .L2::cache_hint [dst], [map, {c0, c1, c2}], [mbar], policy`, the map a cvta.param address.
  const auto path = std::filesystem::path(VOLTA_SOURCE_DIR) / ".." / "shared" / "production" /
                    "hopper" / "cutlass_gemm" / "hopper_gemm_ws_c1.ptx";
  if (!std::filesystem::exists(path))
    GTEST_SKIP() << path << " is absent: the Hopper production kernels are not in this checkout";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto parsed = ptx::parse(text.str(), path.string());
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed.module->entries().size(), 1u);
  auto lowered = exec::lower(*parsed.module, parsed.module->entries()[0]->name, text.str());
  ASSERT_TRUE(lowered.program.has_value());
  int loads = 0;
  for (const exec::Inst& x : lowered.program->insts) {
    if (x.text.find("cp.async.bulk.tensor") == std::string::npos)
      continue;
    ++loads;
    EXPECT_EQ(x.op, exec::XOp::TensorLoad) << x.text;
    EXPECT_EQ(x.groups[0], 3) << x.text;
    EXPECT_TRUE(x.mem[0].present && x.mem[1].present) << x.text;
  }
  EXPECT_GT(loads, 0);
}

} // namespace
} // namespace volta::etest
