// The converged-warp paths of the interpreter (integer arithmetic, integer setp and loads from
// input arrays done as one loop over a warp's lanes) against what the lane-by-lane path gives:
// only the active lanes are written, inactive lanes with symbolic values neither leak into nor
// block the result, partial warps (a 40-thread block) work, and a load the fast path does not
// cover (a sub-element load, a mixed-kind warp) takes the lane path with the same result.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

constexpr uint32_t kThreads = 40; // one full warp and a partial one

Launch forty_threads() {
  Launch l = one_out(2 * kThreads, {kThreads, 1, 1});
  l.arrays.push_back("in:0x200000:4:40:in");
  l.params.push_back("ptr:in");
  return l;
}

// `body` after the pointers: %rd3 = &out[tid], %rd4 = &in[tid], %r1 = tid.
std::string with_pointers(const std::string& body, std::string_view decls = "") {
  return kernel(".param .u64 p_out, .param .u64 p_in", R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  cvta.to.global.u64 %rd0, %rd0;
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd0, %rd2;
  add.s64 %rd4, %rd1, %rd2;
)" + body + "\n  ret;",
                decls);
}

TEST(WarpPaths, GuardedIntegerArithmeticWritesOnlyTheActiveLanes) {
  const auto r = run_ptx(with_pointers(R"(
  mov.u32 %r2, 100;
  mov.u64 %rd5, 7;
  setp.lt.u32 %p1, %r1, 8;
  @!%p1 add.u32 %r2, %r1, 1000;
  @!%p1 mad.lo.u32 %r2, %r2, 3, %r1;
  @%p1 mul.wide.u32 %rd5, %r1, 0x80000000;
  st.global.u32 [%rd3], %r2;
  cvt.u32.u64 %r3, %rd5;
  shr.u64 %rd6, %rd5, 32;
  cvt.u32.u64 %r4, %rd6;
  add.u32 %r4, %r4, %r3;
  st.global.u32 [%rd3+160], %r4;)"),
                         forty_threads());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(t);
    EXPECT_EQ(r.expr("out", t), std::to_string(t < 8 ? 100 : (t + 1000) * 3 + t));
    // t * 2^31 as a 64-bit product: high word t / 2, low word (t % 2) << 31.
    const uint64_t wide = t < 8 ? uint64_t{t} << 31 : 7;
    EXPECT_EQ(r.expr("out", kThreads + t),
              std::to_string(static_cast<uint32_t>((wide >> 32) + (wide & 0xffffffffu))));
  }
}

TEST(WarpPaths, SymbolicValuesInInactiveLanesStayTheirs) {
  // Lanes 0-3 hold integer data in %r5, the others their thread index; the guarded add runs on
  // the concrete lanes only, the unguarded one on all lanes (data in some).
  const auto r = run_ptx(with_pointers(R"(
  mov.u32 %r5, %r1;
  mov.u32 %r6, 7;
  setp.lt.u32 %p1, %r1, 4;
  @%p1 ld.global.u32 %r5, [%rd4];
  @!%p1 add.u32 %r6, %r5, 5;
  add.u32 %r7, %r5, 1;
  st.global.u32 [%rd3], %r6;
  st.global.u32 [%rd3+160], %r7;)"),
                         forty_threads());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(t);
    EXPECT_EQ(r.expr("out", t), std::to_string(t < 4 ? 7 : t + 5));
    const std::string sum = r.expr("out", kThreads + t);
    if (t < 4) {
      EXPECT_NE(sum.find("in[" + std::to_string(t) + "]"), std::string::npos) << sum;
    } else {
      EXPECT_EQ(sum, std::to_string(t + 1));
    }
  }
}

TEST(WarpPaths, IntegerSetpWithTwoDestinationsInAPartialWarp) {
  const auto r = run_ptx(with_pointers(R"(
  setp.gt.s32 %p1|%p2, %r1, 20;
  selp.u32 %r2, 1, 0, %p1;
  selp.u32 %r3, 1, 0, %p2;
  st.global.u32 [%rd3], %r2;
  st.global.u32 [%rd3+160], %r3;)"),
                         forty_threads());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < kThreads; ++t) {
    EXPECT_EQ(r.expr("out", t), t > 20 ? "1" : "0") << t;
    EXPECT_EQ(r.expr("out", kThreads + t), t > 20 ? "0" : "1") << t;
  }
}

TEST(WarpPaths, AWarpThatDivergesAndReconvergesRunsEachLanesPath) {
  // The warp scheduler skips its scan of the lanes while the warp is converged: a loop whose trip
  // count differs per lane, lanes that exit early, a guard that is off for every lane, a branch
  // all lanes take, and a guard on data (both sides merged) must each still give every lane its
  // own path.
  const auto r = run_ptx(with_pointers(R"(
  mov.u32 %r2, 0;
  mov.u32 %r3, 0;
  rem.u32 %r4, %r1, 5;
$loop:
  add.u32 %r2, %r2, %r1;
  add.u32 %r3, %r3, 1;
  setp.le.u32 %p1, %r3, %r4;
  @%p1 bra $loop;
  st.global.u32 [%rd3], %r2;
  rem.u32 %r5, %r1, 7;
  setp.eq.u32 %p2, %r5, 3;
  @%p2 bra $out;
  setp.gt.u32 %p3, %r1, 100;
  @%p3 add.u32 %r2, %r2, 1000;
  bra.uni $next;
  add.u32 %r2, %r2, 2000;
$next:
  ld.global.f32 %f1, [%rd4];
  setp.gt.f32 %p4, %f1, 0f00000000;
  mov.f32 %f2, 0f00000000;
  @%p4 add.f32 %f2, %f1, %f1;
  setp.lt.f32 %p5, %f1, 0f3F800000;
  @%p5 bra $small;
  mov.f32 %f3, 0f40400000;
  bra.uni $join;
$small:
  add.f32 %f3, %f1, 0f40A00000;
$join:
  add.f32 %f2, %f2, %f3;
  st.global.f32 [%rd3+160], %f2;
  add.u32 %r2, %r2, 7;
  st.global.u32 [%rd3], %r2;
$out:
  ret;)"),
                         forty_threads());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(t);
    const uint32_t sum = t * (t % 5 + 1);
    const bool exits = t % 7 == 3;
    EXPECT_EQ(r.expr("out", t), std::to_string(exits ? sum : sum + 7));
    if (!exits) {
      const std::string x = "in[" + std::to_string(t) + "]";
      EXPECT_EQ(r.expr("out", kThreads + t),
                fmt::format("(+ (select (cmp.gt {0} 0) (+ {0} {0}) 0) (select (cmp.lt {0} 1) "
                            "(+ {0} 5) 3))",
                            x));
    }
  }
}

TEST(WarpPaths, LoadsFromAnInputArrayInEveryShape) {
  // A guarded f32 load of odd lanes (whole elements, the symbol table), a u16 load of the
  // low half of an element (the byte cells), and a v2 load of two neighbours.
  const auto r = run_ptx(with_pointers(R"(
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 1;
  mov.f32 %f1, 0f3F800000;
  @%p1 ld.global.f32 %f1, [%rd4];
  st.global.f32 [%rd3], %f1;
  and.b32 %r3, %r1, 0xFFFFFFFE;
  mul.wide.u32 %rd5, %r3, 4;
  add.s64 %rd6, %rd1, %rd5;
  ld.global.v2.f32 {%f2, %f3}, [%rd6];
  add.f32 %f4, %f2, %f3;
  st.global.f32 [%rd3+160], %f4;)"),
                         forty_threads());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(t);
    EXPECT_EQ(r.expr("out", t), t % 2 == 1 ? "in[" + std::to_string(t) + "]" : "1");
    const uint32_t even = t & ~1u;
    const std::string pair = r.expr("out", kThreads + t);
    EXPECT_NE(pair.find("in[" + std::to_string(even) + "]"), std::string::npos) << pair;
    EXPECT_NE(pair.find("in[" + std::to_string(even + 1) + "]"), std::string::npos) << pair;
  }
}

TEST(WarpPaths, ALoadOfOneElementByEveryLaneGivesEachLaneItsSymbols) {
  // Every active lane reads in[6..7] (v2) and in[9]; the guarded load leaves lanes 0-4 their
  // own value; the partial warp (lanes 32-39) takes the same path with fewer lanes.
  const auto r = run_ptx(with_pointers(R"(
  ld.global.v2.f32 {%f1, %f2}, [%rd1+24];
  mov.f32 %f3, 0f40000000;
  setp.gt.u32 %p1, %r1, 4;
  @%p1 ld.global.f32 %f3, [%rd1+36];
  add.f32 %f4, %f1, %f2;
  st.global.f32 [%rd3], %f4;
  st.global.f32 [%rd3+160], %f3;)"),
                         forty_threads());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(t);
    EXPECT_EQ(r.expr("out", t), "(+ in[6] in[7])");
    EXPECT_EQ(r.expr("out", kThreads + t), t > 4 ? "in[9]" : "2");
  }
}

TEST(WarpPaths, ASubElementLoadGoesThroughTheByteCells) {
  const auto r = run_ptx(with_pointers(R"(
  ld.global.u16 %r2, [%rd4+2];
  ld.global.f32 %f1, [%rd4];
  st.global.u32 [%rd3], %r2;
  st.global.f32 [%rd3+160], %f1;)"),
                         forty_threads());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(t);
    // The high half of in[t]: a view of its bits, never the element's value.
    const std::string half = r.expr("out", t);
    EXPECT_NE(half.find("in[" + std::to_string(t) + "]"), std::string::npos) << half;
    EXPECT_NE(half, "in[" + std::to_string(t) + "]");
    EXPECT_EQ(r.expr("out", kThreads + t), "in[" + std::to_string(t) + "]");
  }
}

TEST(WarpPaths, AWarpLoadPastTheArrayIsReportedByTheLaneThatMakesIt) {
  // Lane 39 reads in[40], one past the end: the warp's check sees it and the lane path names it.
  const auto r = run_ptx(with_pointers(R"(
  ld.global.f32 %f1, [%rd4+4];
  st.global.f32 [%rd3], %f1;)"),
                         forty_threads());
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds) << r.describe();
  ASSERT_TRUE(r.failure()->first.has_value());
  EXPECT_EQ(r.failure()->first->thread, 39u) << r.describe();
}

// Shared loads of a warp: the race shadow sees every lane, in lane order, as the lane path does.
constexpr std::string_view kSharedDecls = ".shared .align 4 .b8 sdata[160];\n"
                                          ".shared .align 4 .b8 other[160];\n";
// `body` with %r12 = &sdata[tid] as well.
std::string shared_kernel(const std::string& body) {
  return with_pointers(R"(
  mov.u32 %r10, sdata;
  shl.b32 %r11, %r1, 2;
  add.u32 %r12, %r10, %r11;
)" + body,
                       kSharedDecls);
}

TEST(WarpPaths, ASharedReadOfAnotherLanesUnorderedWriteIsARace) {
  const std::string text = shared_kernel(R"(
  st.shared.f32 [%r12], 0f3F800000;
  ld.shared.f32 %f1, [%r12+4];)");
  const auto r = run_ptx(text, forty_threads());
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace) << r.describe();
  ASSERT_TRUE(r.failure()->first && r.failure()->second);
  // Thread 0 reads the word thread 1 wrote: the first lane of the load's warp path.
  EXPECT_EQ(r.failure()->first->thread, 0u) << r.describe();
  EXPECT_EQ(r.failure()->second->thread, 1u) << r.describe();
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "ld.shared.f32")) << r.describe();
}

TEST(WarpPaths, SharedReadsAfterABarrierAreOrdered) {
  const std::string text = shared_kernel(R"(
  cvt.rn.f32.u32 %f1, %r1;
  st.shared.f32 [%r12], %f1;
  bar.sync 0;
  setp.lt.u32 %p1, %r1, 39;
  selp.u32 %r13, 4, -156, %p1;
  add.u32 %r14, %r12, %r13;
  ld.shared.f32 %f2, [%r14];
  st.global.f32 [%rd3], %f2;)");
  const auto r = run_ptx(text, forty_threads());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < kThreads; ++t)
    EXPECT_EQ(r.expr("out", t), std::to_string((t + 1) % kThreads)) << t;
}

TEST(WarpPaths, ASharedWarpLoadPastItsVariableIsOutOfBoundsForTheLaneThatMakesIt) {
  // Lane 39 reads sdata[160], past the variable (into `other`): out of bounds, by thread 39.
  const std::string text = shared_kernel(R"(
  st.shared.f32 [%r12], 0f00000000;
  bar.sync 0;
  ld.shared.f32 %f1, [%r12+4];)");
  const auto r = run_ptx(text, forty_threads());
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds) << r.describe();
  ASSERT_TRUE(r.failure()->first.has_value());
  EXPECT_EQ(r.failure()->first->thread, 39u) << r.describe();
}

} // namespace
} // namespace volta::etest
