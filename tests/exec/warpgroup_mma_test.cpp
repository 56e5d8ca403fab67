// wgmma and stmatrix in the symbolic engine (exec_warpgroup_mma.cpp): stmatrix against ldmatrix's
// layout, the accumulator of a wgmma in flight, the .aligned agreement of a warpgroup's warps.
// The products themselves are checked end to end by the soundness class 38-wgmma (naive GEMMs
// proved EQUIVALENT, swizzle and transpose mismatches NOT_EQUIVALENT, cross-checked on the
// emulator) and the layouts by warpgroup_mma_layout_test.cpp.
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

std::string sm90a(std::string text) {
  text.replace(text.find("sm_80"), 5, "sm_90a");
  return text;
}

// 32 lanes; lane l's register i holds elements 64 i + 2 l (low half) and 64 i + 2 l + 1 of
// `count` 8x8 matrices; stmatrix stores them to `tile` (matrix i at 128 i, rows 16 bytes apart),
// then lane l reads halfwords 2 (count l) .. back into out[].
Result run_stmatrix(uint32_t count, bool trans) {
  std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %laneid;
  mov.u32 %r2, tile;
  // Row addresses: lane 8 i + r names row r of matrix i.
  and.b32 %r3, %r1, 7;
  shl.b32 %r3, %r3, 4;
  shr.u32 %r4, %r1, 3;
  shl.b32 %r4, %r4, 7;
  add.u32 %r5, %r2, %r3;
  add.u32 %r5, %r5, %r4;
  shl.b32 %r6, %r1, 1;
)";
  std::string regs;
  for (uint32_t i = 0; i < count; ++i) {
    const std::string r = "%r" + std::to_string(10 + i);
    body += "  add.u32 " + r + ", %r6, " + std::to_string(64 * i) + ";\n";
    body += "  add.u32 %r20, " + r + ", 1;\n  shl.b32 %r20, %r20, 16;\n  or.b32 " + r + ", " + r +
            ", %r20;\n";
    regs += (i ? ", " : "") + r;
  }
  body += "  stmatrix.sync.aligned.m8n8.x" + std::to_string(count) + (trans ? ".trans" : "") +
          ".shared.b16 [%r5], {" + regs + "};\n  bar.warp.sync 0xffffffff;\n";
  // Lane l reads halfwords count * l .. count * l + count - 1... as pairs: 2 count of them.
  for (uint32_t j = 0; j < 2 * count; ++j) {
    const std::string e = std::to_string(j);
    body += "  mad.lo.u32 %r21, %r1, " + std::to_string(2 * count) + ", " + e +
            ";\n  shl.b32 %r22, %r21, 1;\n  add.u32 %r22, %r22, %r2;\n  ld.shared.u16 %h1, "
            "[%r22];\n  mul.wide.u32 %rd1, %r21, 2;\n  add.u64 %rd2, %rd0, %rd1;\n  "
            "st.global.u16 [%rd2], %h1;\n";
  }
  body += "  ret;";
  const std::string text =
      sm90a(kernel(".param .u64 p_out", body, ".shared .align 16 .b8 tile[512];\n"));
  Launch l = one_out(64 * count, {32, 1, 1}, 2);
  return run_ptx(text, l);
}

TEST(Stmatrix, StoresLdmatrixsFragmentRowByRow) {
  for (uint32_t count : {1u, 2u, 4u}) {
    SCOPED_TRACE(count);
    const Result r = run_stmatrix(count, false);
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    // Element (row, col) of matrix i is held by lane 4 row + col / 2: value 64 i + 8 row + col.
    for (uint32_t e = 0; e < 64 * count; ++e)
      EXPECT_EQ(r.expr("out", e), std::to_string(e)) << e;
  }
}

TEST(Stmatrix, TransStoresTheTranspose) {
  for (uint32_t count : {1u, 4u}) {
    SCOPED_TRACE(count);
    const Result r = run_stmatrix(count, true);
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    // The value lane l holds as (row, col) of the fragment lands at (col, row).
    for (uint32_t e = 0; e < 64 * count; ++e) {
      const uint32_t i = e / 64, row = (e % 64) / 8, col = e % 8;
      EXPECT_EQ(r.expr("out", e), std::to_string(64 * i + 8 * col + row)) << e;
    }
  }
}

// One warpgroup: zeroes a 4 KiB tile, fences, and multiplies it by itself with an m64n8k16 wgmma
// from descriptors without swizzle (scale-d false); `between` runs after commit_group, before
// wait_group; the accumulator goes to out[4 t + i].
Result run_wgmma(const std::string& between, const std::string& fence = "fence.proxy.async;") {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, tile;
  shl.b32 %r3, %r1, 5;
  add.u32 %r4, %r2, %r3;
  mov.u32 %r5, 0;
  st.shared.v4.u32 [%r4], {%r5, %r5, %r5, %r5};
  st.shared.v4.u32 [%r4+16], {%r5, %r5, %r5, %r5};
  )" + fence + R"(
  bar.sync 0;
  cvt.u64.u32 %rd1, %r2;
  shr.u64 %rd1, %rd1, 4;
  or.b64 %rd2, %rd1, 0x0000001000080000;
  setp.ne.u32 %p1, %r5, 0;
  mov.f32 %f1, 0f00000000;
  mov.f32 %f2, 0f00000000;
  mov.f32 %f3, 0f00000000;
  mov.f32 %f4, 0f00000000;
  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd2, %rd2, %p1, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
  )" + between + R"(
  wgmma.wait_group.sync.aligned 0;
  mul.wide.u32 %rd3, %r1, 16;
  add.u64 %rd4, %rd0, %rd3;
  st.global.v4.f32 [%rd4], {%f1, %f2, %f3, %f4};
  ret;)";
  const std::string text =
      sm90a(kernel(".param .u64 p_out", body, ".shared .align 1024 .b8 tile[4096];\n"));
  return run_ptx(text, one_out(512, {128, 1, 1}));
}

TEST(Wgmma, ZeroTilesGiveZeroAccumulators) {
  const Result r = run_wgmma("");
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree) << r.describe();
  for (uint32_t i = 0; i < 512; ++i)
    EXPECT_EQ(r.expr("out", i), "0") << i;
}

TEST(Wgmma, AccumulatorWrittenInFlightIsARace) {
  const std::string mov = "mov.f32 %f2, 0f3F800000;";
  const Result r = run_wgmma(mov);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace) << r.describe();
  EXPECT_NE(r.failure()->message.find("%f2"), std::string::npos) << r.describe();
  ASSERT_TRUE(r.failure()->first.has_value());
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(r.ptx_text, mov)) << r.describe();
}

TEST(Wgmma, AccumulatorReadInFlightIsARace) {
  const Result r = run_wgmma("add.f32 %f9, %f3, %f3;");
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace) << r.describe();
}

TEST(Wgmma, OtherRegistersMayBeUsedInFlight) {
  const Result r = run_wgmma("add.f32 %f9, %f10, %f10;\n  add.u32 %r30, %r1, 1;");
  EXPECT_EQ(r.failure(), nullptr) << r.describe();
}

TEST(Wgmma, MissingProxyFenceIsCaught) {
  const Result r = run_wgmma("", "");
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace) << r.describe();
  EXPECT_NE(r.failure()->message.find("fence.proxy.async"), std::string::npos) << r.describe();
}

TEST(Wgmma, EveryProxyFenceFormOrdersTheStores) {
  for (const std::string f : {"fence.proxy.async;", "fence.proxy.async.shared::cta;"}) {
    SCOPED_TRACE(f);
    const Result r = run_wgmma("", f);
    EXPECT_EQ(r.failure(), nullptr) << r.describe();
  }
}

TEST(Wgmma, AWarpLeftOutOfTheWarpgroupIsDivergence) {
  // Warp 1 skips the commit_group the other three execute.
  const Result r = run_wgmma(R"(
  shr.u32 %r31, %r1, 5;
  setp.eq.u32 %p2, %r31, 1;
  @%p2 bra SKIP;
  wgmma.commit_group.sync.aligned;
SKIP:)");
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::BarrierDivergence) << r.describe();
}

} // namespace
} // namespace volta::etest
