// Hopper warp specialization in the symbolic CTA (issue 33): elect.sync (the lowest member lane
// leads; d is its lane id in every member), setmaxnreg (no effect on values; every thread of
// the warpgroup executes the same one, else BARRIER_DIVERGENCE), griddepcontrol (nothing to wait
// for in a single launch), the proxy and mbarrier_init fences (no effect), and the cluster
// registers of a cluster of one CTA. The emulator's side: tests/emulate/emulate_warp_spec_test.cpp.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

std::string sm90(std::string text) {
  text.replace(text.find("sm_80"), 5, "sm_90a");
  return text;
}

// out[t] = d * 1000 + p of `elect.sync d|p, MASK` for the lanes whose tid is in MASK; the others
// store 7777.
std::string elect_kernel(std::string_view mask) {
  std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  mov.u32 %r5, 7777;
  mov.u32 %r6, 1;
  shl.b32 %r6, %r6, %r1;
  and.b32 %r6, %r6, MASK;
  setp.eq.u32 %p2, %r6, 0;
  @%p2 bra $L_store;
  elect.sync %r3|%p1, MASK;
  selp.u32 %r4, 1, 0, %p1;
  mad.lo.u32 %r5, %r3, 1000, %r4;
$L_store:
  st.global.u32 [%rd2], %r5;
  ret;)";
  for (size_t at; (at = body.find("MASK")) != std::string::npos;)
    body.replace(at, 4, mask);
  return sm90(kernel(".param .u64 p_out", body));
}

TEST(WarpSpecialization, ElectSyncChoosesTheLowestMemberLane) {
  for (const auto& [mask, leader] :
       {std::pair<std::string, uint32_t>{"0xffffffff", 0}, {"0xfffffff0", 4}, {"0x00000300", 8}}) {
    SCOPED_TRACE(mask);
    const uint32_t m = static_cast<uint32_t>(std::stoul(mask, nullptr, 16));
    const auto r = run_ptx(elect_kernel(mask), one_out(32, {32, 1, 1}));
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    for (uint32_t t = 0; t < 32; ++t) {
      const uint32_t expected = ((m >> t) & 1u) ? leader * 1000 + (t == leader ? 1 : 0) : 7777u;
      EXPECT_EQ(r.expr("out", t), std::to_string(expected)) << t;
    }
  }
}

TEST(WarpSpecialization, ElectSyncWithASinkDestination) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  elect.sync _|%p1, 0xffffffff;
  selp.u32 %r4, 5, 9, %p1;
  st.global.u32 [%rd2], %r4;
  ret;)";
  const auto r = run_ptx(sm90(kernel(".param .u64 p_out", body)), one_out(64, {64, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < 64; ++t)
    EXPECT_EQ(r.expr("out", t), t % 32 == 0 ? "5" : "9") << t;
}

TEST(WarpSpecialization, ElectSyncOutsideItsMemberMaskIsDivergence) {
  // Lane 0 executes it with a mask that leaves lane 0 out: undefined behaviour.
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  elect.sync %r3|%p1, 0xfffffffe;
  st.global.u32 [%rd0], %r3;
  ret;)";
  const auto r = run_ptx(sm90(kernel(".param .u64 p_out", body)), one_out(1, {32, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::BarrierDivergence) << r.describe();
}

// Each thread stores tid + 1 after `setmaxnreg` (and the no-effect Hopper instructions).
std::string setmaxnreg_kernel(std::string_view before_store) {
  std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  add.u32 %r2, %r1, 1;
  BEFORE
  st.global.u32 [%rd2], %r2;
  ret;)";
  body.replace(body.find("BEFORE"), 6, before_store);
  return sm90(kernel(".param .u64 p_out", body));
}

TEST(WarpSpecialization, NoEffectInstructionsLeaveTheValues) {
  const std::string all = "griddepcontrol.wait;\n  setmaxnreg.dec.sync.aligned.u32 40;\n"
                          "  fence.proxy.async.shared::cta;\n  fence.proxy.async;\n"
                          "  fence.mbarrier_init.release.cluster;\n"
                          "  setmaxnreg.inc.sync.aligned.u32 232;\n"
                          "  griddepcontrol.launch_dependents;";
  const auto r = run_ptx(setmaxnreg_kernel(all), one_out(256, {256, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t t = 0; t < 256; t += 37)
    EXPECT_EQ(r.expr("out", t), std::to_string(t + 1)) << t;
}

TEST(WarpSpecialization, SetmaxnregByPartOfAWarpgroupIsDivergence) {
  // Warps 0-1 decrease, warps 2-3 increase (the producer/consumer split of CUTLASS is by
  // warpgroup, this one is inside one): undefined behaviour.
  const std::string split = R"(setp.lt.u32 %p1, %r1, 64;
  @%p1 bra $L_dec;
  setmaxnreg.inc.sync.aligned.u32 232;
  bra.uni $L_join;
$L_dec:
  setmaxnreg.dec.sync.aligned.u32 40;
$L_join:)";
  const auto r = run_ptx(setmaxnreg_kernel(split), one_out(128, {128, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::BarrierDivergence) << r.describe();
  EXPECT_NE(r.failure()->message.find("warpgroup"), std::string::npos) << r.describe();

  // By whole warpgroups it is fine.
  std::string by_group = split;
  by_group.replace(by_group.find("64"), 2, "128");
  const auto ok = run_ptx(setmaxnreg_kernel(by_group), one_out(256, {256, 1, 1}));
  EXPECT_EQ(ok.failure(), nullptr) << ok.describe();
}

TEST(WarpSpecialization, SetmaxnregSkippedByAWarpIsDivergence) {
  // Warp 3 exits before it; the other three execute it.
  const std::string skip = R"(setp.ge.u32 %p1, %r1, 96;
  @%p1 bra $L_end;
  setmaxnreg.dec.sync.aligned.u32 40;
$L_end:)";
  const auto r = run_ptx(setmaxnreg_kernel(skip), one_out(128, {128, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::BarrierDivergence) << r.describe();
}

TEST(WarpSpecialization, SetmaxnregByPartOfAWarpOrAPartialWarpgroupIsDivergence) {
  const std::string half_warp = R"(setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $L_end;
  setmaxnreg.dec.sync.aligned.u32 40;
$L_end:)";
  const auto r = run_ptx(setmaxnreg_kernel(half_warp), one_out(128, {128, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_NE(r.failure()->verdict, Verdict::Unknown) << r.describe();
  EXPECT_TRUE(r.failure()->verdict == Verdict::BarrierDivergence ||
              r.failure()->verdict == Verdict::Deadlock)
      << r.describe();

  // A CTA of 64 threads has no whole warpgroup.
  const auto small =
      run_ptx(setmaxnreg_kernel("setmaxnreg.dec.sync.aligned.u32 40;"), one_out(64, {64, 1, 1}));
  ASSERT_NE(small.failure(), nullptr) << small.describe();
  EXPECT_EQ(small.failure()->verdict, Verdict::BarrierDivergence) << small.describe();
}

TEST(WarpSpecialization, ClusterRegistersOfAClusterOfOneCta) {
  // out[0..] = %cluster_ctarank, %cluster_nctarank, %cluster_ctaid.x, %cluster_nctaid.y,
  // %clusterid.x, %nclusterid.x in CTA 0 of a grid of 3.
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %cluster_ctarank;
  st.global.u32 [%rd0], %r1;
  mov.u32 %r1, %cluster_nctarank;
  st.global.u32 [%rd0+4], %r1;
  mov.u32 %r1, %cluster_ctaid.x;
  st.global.u32 [%rd0+8], %r1;
  mov.u32 %r1, %cluster_nctaid.y;
  st.global.u32 [%rd0+12], %r1;
  mov.u32 %r1, %clusterid.x;
  st.global.u32 [%rd0+16], %r1;
  mov.u32 %r1, %nclusterid.x;
  st.global.u32 [%rd0+20], %r1;
  ret;)";
  Launch l = one_out(6);
  l.grid = {3, 1, 1};
  const auto r = run_ptx(sm90(kernel(".param .u64 p_out", body)), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "0");
  EXPECT_EQ(r.expr("out", 1), "1");
  EXPECT_EQ(r.expr("out", 2), "0");
  EXPECT_EQ(r.expr("out", 3), "1");
  EXPECT_EQ(r.expr("out", 4), "0");
  EXPECT_EQ(r.expr("out", 5), "3");
}

constexpr std::string_view kBar = ".shared .align 8 .b64 bar;\n";

TEST(Mbarrier, TheSymbolicEngineRunsATokenWaitOnItsOwnArrive) {
  // One thread: init (count 1), arrive (phase 0 completes), a token wait that passes at once.
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, bar;
  mbarrier.init.shared::cta.b64 [%r1], 1;
  mbarrier.arrive.shared::cta.b64 %rd1, [%r1];
$L_wait:
  mbarrier.try_wait.shared::cta.b64 %p1, [%r1], %rd1;
  @!%p1 bra $L_wait;
  mov.u32 %r2, 7;
  st.global.u32 [%rd0], %r2;
  ret;)";
  const auto r = run_ptx(sm90(kernel(".param .u64 p_out", body, kBar)), one_out(1));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "7");
}

// 64 threads: thread 0 inits `bar` with `count`, bar.sync, then `body` (%r3: warp, %r2: lane,
// %r1: the mbarrier's address, %rd0: out).
std::string two_warp_mbarrier(uint32_t count, std::string_view body) {
  return sm90(kernel(".param .u64 p_out",
                     fmt::format(R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r0, %tid.x;
  and.b32 %r2, %r0, 31;
  shr.u32 %r3, %r0, 5;
  mov.u32 %r1, bar;
  setp.ne.u32 %p0, %r0, 0;
  @%p0 bra $L_inited;
  mbarrier.init.shared::cta.b64 [%r1], {};
$L_inited:
  bar.sync 0;
{}
  ret;)",
                                 count, body),
                     kBar));
}

TEST(Mbarrier, ArrivalsThatAnotherScheduleGroupsOtherwiseGiveNoPositiveVerdict) {
  // Count 32 and both warps arrive with no order between them: phase 0 is warp 0's arrivals in
  // the engine's schedule, warp 1's in another one. The run is clean, but UNSUPPORTED.
  const std::string text = two_warp_mbarrier(32, R"(
  mbarrier.arrive.shared::cta.b64 %rd1, [%r1];)");
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported) << r.describe();
  EXPECT_NE(r.failure()->message.find("depends on the schedule"), std::string::npos)
      << r.describe();
}

TEST(Mbarrier, AParityWaitThatAnotherScheduleCouldLapGivesNoPositiveVerdict) {
  // Warp 0 waits for parity 0; warp 1 arrives (phase 0), waits for it itself and arrives again
  // (phase 1), unordered with warp 0's wait: in another schedule warp 0 reaches its wait at
  // phase 2, of parity 0, and waits for that one.
  const std::string text = two_warp_mbarrier(32, R"(
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra $L_producer;
$L_wait:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r1], 0;
  @!%p2 bra $L_wait;
  bra.uni $L_end;
$L_producer:
  mbarrier.arrive.shared::cta.b64 %rd1, [%r1];
$L_own:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r1], 0;
  @!%p3 bra $L_own;
  mbarrier.arrive.shared::cta.b64 %rd1, [%r1];
$L_end:)");
  const auto r = run_ptx(text, one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported) << r.describe();
  EXPECT_NE(r.failure()->message.find("same parity"), std::string::npos) << r.describe();
}

TEST(Mbarrier, LanesOfOneArriveAtTwoMbarriersReleaseOnlyToTheirOwn) {
  // Warp 1 stores every lane's element; its lanes 0-15 then arrive at `bar` (count 16), lanes
  // 16-31 at `bar2`. Warp 0 waits on `bar` and loads lane 20's element, which only `bar2`'s
  // phase released: a race (a whole-warp release into `bar` would hide it).
  const std::string body = R"(
  mov.u32 %r0, %tid.x;
  and.b32 %r2, %r0, 31;
  shr.u32 %r3, %r0, 5;
  mov.u32 %r1, bar;
  mov.u32 %r4, bar2;
  mov.u32 %r5, buf;
  setp.ne.u32 %p0, %r0, 0;
  @%p0 bra $L_inited;
  mbarrier.init.shared::cta.b64 [%r1], 16;
  mbarrier.init.shared::cta.b64 [%r4], 16;
$L_inited:
  bar.sync 0;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra $L_consumer;
  shl.b32 %r6, %r2, 2;
  add.u32 %r7, %r5, %r6;
  st.shared.u32 [%r7], %r2;
  setp.lt.u32 %p2, %r2, 16;
  selp.u32 %r8, %r1, %r4, %p2;
  mbarrier.arrive.shared::cta.b64 %rd1, [%r8];
  bra.uni $L_end;
$L_consumer:
$L_wait:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r1], 0;
  @!%p3 bra $L_wait;
  ld.shared.u32 %r9, [%r5+80];
$L_end:
  ret;)";
  const std::string decls =
      std::string(kBar) + ".shared .align 8 .b64 bar2;\n.shared .align 4 .b32 buf[32];\n";
  const auto r = run_ptx(sm90(kernel(".param .u64 p_out", body, decls)), one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace) << r.describe();
}

TEST(Mbarrier, AnOperationUnorderedWithTheInitRaces) {
  // Thread 32 arrives with no barrier after thread 0's init: in another schedule it arrives
  // first, on no mbarrier (undefined): the race check sees the init write and the arrive.
  const std::string body = R"(
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, bar;
  setp.ne.u32 %p0, %r0, 0;
  @%p0 bra $L_arrive;
  mbarrier.init.shared::cta.b64 [%r1], 32;
$L_arrive:
  setp.ne.u32 %p1, %r0, 32;
  @%p1 bra $L_end;
  mbarrier.arrive.shared::cta.b64 %rd1, [%r1];
$L_end:
  ret;)";
  const auto r = run_ptx(sm90(kernel(".param .u64 p_out", body, kBar)), one_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace) << r.describe();
}

TEST(Mbarrier, AWaitForTxBytesThatNoCopyDeliversDeadlocks) {
  // arrive.expect_tx of 16 bytes: no async copy exists to complete them, phase 0 never
  // completes (as in the emulator).
  const std::string body = R"(
  mov.u32 %r1, bar;
  mbarrier.init.shared::cta.b64 [%r1], 1;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r1], 16;
$L_wait:
  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;
  @!%p1 bra $L_wait;
  ret;)";
  const auto r = run_ptx(sm90(kernel(".param .u64 p_out", body, kBar)), one_out(1));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Deadlock) << r.describe();
  EXPECT_NE(r.failure()->message.find("tx-count 16"), std::string::npos) << r.describe();
}

TEST(Mbarrier, AWaitWhoseFalseOutcomeIsUsedIsRefusedByLowering) {
  // try_wait may return false at any time: only a loop straight back to it is modelled.
  for (const std::string after : {"selp.u32 %r2, 1, 0, %p1;\n  st.global.u32 [%rd0], %r2;",
                                  "@!%p1 bra $L_other;\n$L_other:\n  st.global.u32 [%rd0], %r1;"}) {
    SCOPED_TRACE(after);
    const std::string body = "\n  ld.param.u64 %rd0, [p_out];\n  mov.u32 %r1, bar;\n"
                             "  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;\n  " +
                             after + "\n  ret;";
    const std::string text = sm90(kernel(".param .u64 p_out", body, kBar));
    const auto r = run_ptx(text, one_out(1));
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported) << r.describe();
    EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "mbarrier.try_wait"));
    EXPECT_NE(r.failure()->message.find("false outcome"), std::string::npos) << r.describe();
  }
}

TEST(Mbarrier, AnArrivesStateReadAsAValueIsRefused) {
  // The state token is opaque: storing it refuses the store (the first reader reached). Also
  // where the register holds a plain value later (the store still reads the arrive's state):
  // before, only registers written by arrives alone were watched, and the store ran on a
  // made-up state (c37_mbarrier_state_register_reused).
  for (const char* body : {R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, bar;
  st.global.u64 [%rd0], %rd1;
  mbarrier.arrive.shared::cta.b64 %rd1, [%r1];
  ret;)",
                           R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, bar;
  mbarrier.init.shared::cta.b64 [%r1], 1;
  mbarrier.arrive.shared::cta.b64 %rd1, [%r1];
  st.global.u64 [%rd0], %rd1;
  mov.u64 %rd1, 0;
  ret;)"}) {
    SCOPED_TRACE(body);
    const std::string text = sm90(kernel(".param .u64 p_out", body, kBar));
    const auto r = run_ptx(text, one_out(2));
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported) << r.describe();
    EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "st.global.u64"));
    EXPECT_NE(r.failure()->message.find("opaque"), std::string::npos) << r.describe();
  }
}

} // namespace
} // namespace volta::etest
