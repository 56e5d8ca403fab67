// CTA barriers reached from different instructions, by part of a warp, or with exited threads
// (PTX ISA, "barrier", "exit"; engine/exec/exec_barrier.cpp): `barrier.sync` without .aligned
// lets threads arrive from different instructions on sm_70 and later; `.aligned` (and `bar.sync`,
// which is `barrier.sync.aligned`) makes that a BARRIER_DIVERGENCE; below sm_70 the lanes of one
// warp must still meet at one instruction. A barrier with a thread count is not released by
// exits.
#include "engine/exec/lower.hpp"
#include "ptx/parser.hpp"
#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

bool contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

constexpr std::string_view kShared = ".shared .align 4 .b8 s[256];\n";

// 64 threads: even lanes write s[t] = t + 1000 and wait at `even_barrier`, odd lanes write
// s[t] = t + 2000 and wait at `odd_barrier`; after the join each thread stores s[t ^ 1].
std::string split_kernel(std::string_view even_barrier, std::string_view odd_barrier,
                         std::string_view target = "sm_80") {
  std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r4, %r3, %r2;
  and.b32 %r5, %r1, 1;
  setp.eq.u32 %p1, %r5, 1;
  @%p1 bra $L_odd;
  add.u32 %r6, %r1, 1000;
  st.shared.u32 [%r4], %r6;
  EVEN_BARRIER;
  bra.uni $L_join;
$L_odd:
  add.u32 %r6, %r1, 2000;
  st.shared.u32 [%r4], %r6;
  ODD_BARRIER;
$L_join:
  xor.b32 %r7, %r2, 4;
  add.u32 %r8, %r3, %r7;
  ld.shared.u32 %r9, [%r8];
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r9;
  ret;)";
  body.replace(body.find("EVEN_BARRIER"), 12, even_barrier);
  body.replace(body.find("ODD_BARRIER"), 11, odd_barrier);
  std::string text = kernel(".param .u64 p_out", body, kShared);
  text.replace(text.find("sm_80"), 5, target);
  return text;
}

void expect_swapped_pairs(const Result& r) {
  ASSERT_EQ(r.verdict(), Verdict::RaceFree) << r.describe();
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t other = t ^ 1;
    EXPECT_EQ(r.expr("out", t), std::to_string(other + (other & 1 ? 2000 : 1000))) << t;
  }
}

TEST(BarrierForms, NonAlignedBarrierFromTwoInstructionsIsOneBarrier) {
  const auto r = run_ptx(split_kernel("barrier.sync 0", "barrier.sync 0"), one_out(64, {64, 1, 1}));
  expect_swapped_pairs(r);
  EXPECT_EQ(r.run->stats.barriers, 1u);
  // The same with `.cta` spelled out.
  expect_swapped_pairs(
      run_ptx(split_kernel("barrier.cta.sync 0", "barrier.sync 0"), one_out(64, {64, 1, 1})));
}

TEST(BarrierForms, AlignedBarrierFromTwoInstructionsDiverges) {
  for (const auto& [even, odd] : std::vector<std::pair<std::string, std::string>>{
           {"bar.sync 0", "bar.sync 0"},
           {"barrier.sync.aligned 0", "barrier.sync.aligned 0"},
           {"barrier.sync 0", "bar.sync 0"}, // one .aligned form is enough
           {"bar.sync 0", "barrier.sync 0"}}) {
    const auto text = split_kernel(even, odd);
    const auto r = run_ptx(text, one_out(64, {64, 1, 1}));
    ASSERT_NE(r.failure(), nullptr) << even << " / " << odd << ": " << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::BarrierDivergence) << even << " / " << odd;
    EXPECT_TRUE(contains(r.failure()->message, ".aligned")) << r.failure()->message;
    ASSERT_TRUE(r.failure()->first && r.failure()->second);
    EXPECT_NE(r.failure()->first->ptx_line, r.failure()->second->ptx_line);
  }
}

// Below sm_70 "all threads in warp must execute the same barrier instruction": the lanes of a
// warp split over two `barrier.sync` instructions diverge, whole warps at two instructions do
// not.
TEST(BarrierForms, BelowSm70TheLanesOfAWarpMeetAtOneInstruction) {
  const auto text = split_kernel("barrier.sync 0", "barrier.sync 0", "sm_60");
  const auto r = run_ptx(text, one_out(64, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::BarrierDivergence);
  EXPECT_TRUE(contains(r.failure()->message, "below sm_70")) << r.failure()->message;

  std::string by_warp = kernel(".param .u64 p_out", R"(
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $L_second;
  barrier.sync 0;
  ret;
$L_second:
  barrier.sync 0;
  ret;)");
  by_warp.replace(by_warp.find("sm_80"), 5, "sm_60");
  const auto w = run_ptx(by_warp, one_out(1, {64, 1, 1}));
  EXPECT_EQ(w.failure(), nullptr) << w.describe();
  EXPECT_EQ(w.run->stats.barriers, 1u);
}

// Exited lanes in a warp that waits: legal without .aligned (the barrier waits for the
// threads that have not exited), a divergence with it.
std::string half_warp_exits(std::string_view barrier, std::string_view target = "sm_80") {
  std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  and.b32 %r5, %r1, 1;
  setp.eq.u32 %p1, %r5, 1;
  @%p1 exit;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  BARRIER;
  xor.b32 %r7, %r2, 8;
  add.u32 %r8, %r3, %r7;
  ld.shared.u32 %r9, [%r8];
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r9;
  ret;)";
  body.replace(body.find("BARRIER"), 7, barrier);
  std::string text = kernel(".param .u64 p_out", body, kShared);
  text.replace(text.find("sm_80"), 5, target);
  return text;
}

TEST(BarrierForms, ExitedLanesOfAWaitingWarp) {
  const auto ok = run_ptx(half_warp_exits("barrier.sync 0"), one_out(64, {64, 1, 1}));
  ASSERT_EQ(ok.verdict(), Verdict::RaceFree) << ok.describe();
  for (uint32_t t = 0; t < 64; t += 2)
    EXPECT_EQ(ok.expr("out", t), std::to_string(t ^ 2)) << t;
  for (const auto& [barrier, target] :
       std::vector<std::pair<std::string, std::string>>{{"bar.sync 0", "sm_80"},
                                                        {"barrier.sync.aligned 0", "sm_80"},
                                                        {"barrier.sync 0", "sm_60"}}) {
    const auto r = run_ptx(half_warp_exits(barrier, target), one_out(64, {64, 1, 1}));
    ASSERT_NE(r.failure(), nullptr) << barrier << ", " << target << ": " << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::BarrierDivergence) << barrier << ", " << target;
    EXPECT_TRUE(contains(r.failure()->message, "exited without reaching it"))
        << r.failure()->message;
  }
}

// "As threads exit, barriers waiting on all threads are checked ..." (PTX ISA, "exit"): a
// barrier with a thread count counts arrivals by warp, and a warp whose threads all exited
// never arrives; one whose other lanes arrive does.
TEST(BarrierForms, ExitsDoNotReleaseABarrierWithAThreadCount) {
  const std::string whole_warp_exits = kernel(".param .u64 p_out", R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 exit;
  bar.sync 1, 64;
  ret;)");
  const auto r = run_ptx(whole_warp_exits, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Deadlock);
  EXPECT_TRUE(contains(r.failure()->message, "thread count")) << r.failure()->message;
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(whole_warp_exits, "bar.sync 1, 64"));
  // Without the count, the exits release it.
  std::string no_count = whole_warp_exits;
  no_count.replace(no_count.find("bar.sync 1, 64"), 14, "bar.sync 1");
  const auto released = run_ptx(no_count, one_out(1, {64, 1, 1}));
  EXPECT_EQ(released.failure(), nullptr) << released.describe();
  // Every warp keeps a live lane: each arrives, and the count is reached.
  const auto lanes = run_ptx(half_warp_exits("barrier.sync 0, 64"), one_out(64, {64, 1, 1}));
  EXPECT_EQ(lanes.verdict(), Verdict::RaceFree) << lanes.describe();
}

TEST(BarrierForms, CountedAndUncountedWaitersWithExitsAreRefused) {
  const auto text = kernel(".param .u64 p_out", R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 exit;
  setp.lt.u32 %p2, %r1, 48;
  @%p2 bra $L_counted;
  barrier.sync 1;
  ret;
$L_counted:
  barrier.sync 1, 64;
  ret;)");
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
}

// Lowering: the form of every CTA barrier spelling, by target.
TEST(BarrierForms, LoweringRecordsTheForm) {
  auto forms = [](std::string_view target) {
    std::string text = kernel("", R"(
  bar.sync 0;
  bar.cta.sync 0;
  barrier.sync 0;
  barrier.cta.sync 0;
  barrier.sync.aligned 0;
  barrier.cta.sync.aligned 0, 64;
  ret;)");
    text.replace(text.find("sm_80"), 5, target);
    auto parsed = ptx::parse(text, "forms.ptx");
    EXPECT_TRUE(parsed.ok());
    auto lowered = exec::lower(*parsed.module, "k", text);
    EXPECT_TRUE(lowered.program.has_value());
    std::vector<uint8_t> subs;
    for (const auto& in : lowered.program->insts) {
      if (in.op == exec::XOp::BarSync)
        subs.push_back(in.sub);
    }
    return subs;
  };
  const uint8_t a = exec::kBarrierAligned, wa = exec::kBarrierWarpAligned;
  EXPECT_EQ(forms("sm_80"), (std::vector<uint8_t>{a, a, 0, 0, a, a}));
  EXPECT_EQ(forms("sm_90a"), (std::vector<uint8_t>{a, a, 0, 0, a, a}));
  EXPECT_EQ(forms("sm_60"), (std::vector<uint8_t>{a, a, wa, wa, a, a}));
}

} // namespace
} // namespace volta::etest
