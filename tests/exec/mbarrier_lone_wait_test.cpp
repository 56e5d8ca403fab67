// The order a wait gives when only one lane of a warp passes it (engine/exec/mbarrier_order.hpp,
// NamedBarrierOrder::acquire_lane): CUTLASS's warp-specialized producer elects one lane
// (elect.sync), which alone waits on the "empty" mbarrier and then issues the arrive.expect_tx
// and the TMA load that complete the "full" one. That lane's later accesses and releases are
// ordered after its wait; the lanes that did not wait get no order from it. The soundness
// suite's entries c37_mbarrier_elected_* attack the same order with plain stores.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <string>

#include "engine/exec/mbarrier_order.hpp"
#include "engine/exec/named_barrier_order.hpp"
#include "tests/support/engine_test_util.hpp"
#include "tests/support/tensor_load_kernels.hpp"

namespace volta::etest {
namespace {

// A two-round TMA pipeline, 64 threads: warp 0 produces, warp 1 consumes. `full` counts 1
// arrival (plus the box's 128 tx bytes), `empty` 32 (every consumer lane). Round r: the
// producer waits on `empty` for the parity `parity` (%r13 is (r & 1) ^ 1, CUTLASS's), then
// arrive.expect_tx on `full` and loads the 8x4 box at (0, 4r) into `tile`; the consumer waits
// on `full` for parity r & 1, stores tile[lane] to out[32r + lane] and arrives on `empty`.
// `select` picks the producer lanes that run the rounds (%p2 true: this lane runs), the others
// wait at a bar.warp.sync; `waits` / `issues` guard the wait and the issue by lane (%r2).
struct Pipeline {
  std::string select = "  elect.sync %r11|%p2, 0xffffffff;";
  std::string waits = "0";  // the lane that waits ("-1": every selected lane)
  std::string issues = "0"; // the lane that issues ("-1": every selected lane)
  std::string parity = "%r13";
};

std::string pipeline_kernel(const Pipeline& p) {
  auto guard = [](const std::string& lane, const char* label) {
    return lane == "-1" ? std::string()
                        : fmt::format("  setp.ne.u32 %p7, %r2, {};\n  @%p7 bra {};", lane, label);
  };
  return fmt::format(R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .align 64 .b8 k_param_0[128], .param .u64 p_out)
{{
  .reg .pred %p<10>;
  .reg .b32 %r<24>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  .shared .align 1024 .b8 tile[128];
  .shared .align 8 .b64 full;
  .shared .align 8 .b64 empty;
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r0, %tid.x;
  and.b32 %r2, %r0, 31;
  shr.u32 %r3, %r0, 5;
  mov.u32 %r4, full;
  mov.u32 %r5, empty;
  mov.u32 %r9, tile;
  mov.u32 %r20, 0;
  setp.ne.u32 %p0, %r0, 0;
  @%p0 bra $L_inited;
  mbarrier.init.shared::cta.b64 [%r4], 1;
  mbarrier.init.shared::cta.b64 [%r5], 32;
  fence.mbarrier_init.release.cluster;
$L_inited:
  bar.sync 0;
  mov.u32 %r10, 0;
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra $L_consumer;
{0}
  @!%p2 bra $L_producer_done;
  mov.u64 %rd1, k_param_0;
  cvta.param.u64 %rd2, %rd1;
$L_produce:
  and.b32 %r12, %r10, 1;
  xor.b32 %r13, %r12, 1;
{1}
$L_wait_empty:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r5], {3};
  @!%p3 bra $L_wait_empty;
$L_waited:
{2}
  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r4], 128;
  shl.b32 %r14, %r10, 2;
  cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r9], [%rd2, {{%r20, %r14}}], [%r4];
$L_issued:
  add.u32 %r10, %r10, 1;
  setp.lt.u32 %p4, %r10, 2;
  @%p4 bra $L_produce;
$L_producer_done:
  bar.warp.sync -1;
  bra.uni $L_end;
$L_consumer:
  and.b32 %r12, %r10, 1;
$L_wait_full:
  mbarrier.try_wait.parity.shared::cta.b64 %p5, [%r4], %r12;
  @!%p5 bra $L_wait_full;
  shl.b32 %r6, %r2, 2;
  add.u32 %r7, %r9, %r6;
  ld.shared.f32 %f1, [%r7];
  shl.b32 %r15, %r10, 5;
  add.u32 %r16, %r15, %r2;
  mul.wide.u32 %rd3, %r16, 4;
  add.u64 %rd4, %rd0, %rd3;
  st.global.f32 [%rd4], %f1;
  mbarrier.arrive.shared::cta.b64 %rd5, [%r5];
  add.u32 %r10, %r10, 1;
  setp.lt.u32 %p6, %r10, 2;
  @%p6 bra $L_consumer;
$L_end:
  ret;
}}
)",
                     p.select, guard(p.waits, "$L_waited"), guard(p.issues, "$L_issued"), p.parity);
}

// A is 8 x 8 f32 (rows 32 bytes); out 64 f32.
KernelConfig pipeline_config() {
  Launch l;
  l.block = {64, 1, 1};
  l.arrays = {"A:0x200000:4:64:in", "out:0x100000:4:64:out"};
  l.params = {"ptr:out"};
  KernelConfig c = make_config(l);
  c.params.insert(c.params.begin(), tma_test::map_param(tma_test::f32_map(8, 8, 32, 8, 4)));
  return c;
}

TEST(MbarrierLoneWait, AnElectedLanesWaitOrdersItsOwnExpectTxAndTensorLoad) {
  // The elected lane's wait for the consumer's release of round 0 orders its refill of the
  // tile (round 1) after the consumer's reads, and the completion of `full`'s and `empty`'s
  // next phases after its waits: every check passes, the outputs are the boxes.
  const auto r = run_ptx(pipeline_kernel(Pipeline{}), pipeline_config());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t i = 0; i < 64; ++i)
    EXPECT_EQ(r.expr("out", i), "A[" + std::to_string(i) + "]") << i;
}

TEST(MbarrierLoneWait, ALaneThatDidNotWaitIsNotOrderedByAnotherLanesWait) {
  // Lanes 0 and 1 run the rounds; lane 0 waits, lane 1 issues the expect_tx and the load. Lane
  // 1's refill of the tile is ordered after nothing the consumer did: no clean run.
  Pipeline p;
  p.select = "  setp.lt.u32 %p2, %r2, 2;";
  p.waits = "0";
  p.issues = "1";
  const auto r = run_ptx(pipeline_kernel(p), pipeline_config());
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  // Lane 1's second load writes the tile while the consumer may still read the first.
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace) << r.describe();
  EXPECT_NE(r.failure()->message.find("thread 1 "), std::string::npos) << r.describe();
}

TEST(MbarrierLoneWait, AWaitForTheWrongParityOrdersNothing) {
  // The elected lane waits for parity 1 in both rounds: in round 1 that is the phase before
  // phase 0 again (it passes at once while the consumer may still read round 0), not the
  // consumer's release: no clean run.
  Pipeline p;
  p.parity = "1";
  const auto r = run_ptx(pipeline_kernel(p), pipeline_config());
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace) << r.describe();
}

TEST(MbarrierLoneWait, LanesThatWaitAndReleaseNothingCouldBeLapped) {
  // Every producer lane waits (the warp acquires), lane 0 alone issues, and nothing orders the
  // other lanes' waits before the consumer's release (no __syncwarp after them): in another
  // schedule lane 5 reaches its round-0 wait for the phase before phase 0 only after the
  // consumer completed phase 0, sees phase 1 pending, of the same parity, and waits for it.
  Pipeline p;
  p.select = "  setp.eq.u32 %p2, %r3, 0;";
  p.waits = "-1";
  p.issues = "0";
  const auto r = run_ptx(pipeline_kernel(p), pipeline_config());
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported) << r.describe();
  EXPECT_NE(r.failure()->message.find("same parity"), std::string::npos) << r.describe();
}

TEST(MbarrierLoneWait, UnderTheConvergedWaitsAssumptionTheWarpsLanesWaitAsOne) {
  // The same kernel (FlashAttention-3's producer warp waits on barrier_O with every lane, then
  // one lane issues) with RunOptions::converged_waits: the lanes passed their wait together, so
  // the consumer's completion of the next phase, ordered after lane 0's wait through lane 0's
  // arrive.expect_tx, is after every lane's.
  Pipeline p;
  p.select = "  setp.eq.u32 %p2, %r3, 0;";
  p.waits = "-1";
  p.issues = "0";
  exec::RunOptions converged;
  converged.converged_waits = true;
  const auto r = run_ptx(pipeline_kernel(p), pipeline_config(), converged);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t i = 0; i < 64; ++i)
    EXPECT_EQ(r.expr("out", i), "A[" + std::to_string(i) + "]") << i;
}

TEST(MbarrierLoneWait, ConvergedWaitsStillNeedOneLaneOrderedBeforeTheNextPhase) {
  // Lanes 0-3 wait apart (a divergent guard: four lone waits, no group) and lane 0 issues:
  // lanes 1-3 could be lapped, assumption or not.
  Pipeline p;
  p.select = "  setp.lt.u32 %p2, %r2, 4;";
  p.waits = "-1";
  p.issues = "0";
  exec::RunOptions converged;
  converged.converged_waits = true;
  const auto r = run_ptx(pipeline_kernel(p), pipeline_config(), converged);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported) << r.describe();
  EXPECT_NE(r.failure()->message.find("same parity"), std::string::npos) << r.describe();
}

TEST(MbarrierLoneWait, AConvergedGroupIsSatisfiedThroughAnyOfItsPasses) {
  // MbarrierOrder on its own: lanes 0 and 1 of warp 0 pass a parity wait for phase -1 in one
  // group; lane 1 releases to warp 1's lane 32, which then completes phase 0. Without a group
  // lane 0's pass would stay unordered before it.
  for (bool grouped : {false, true}) {
    SCOPED_TRACE(grouped ? "one group" : "no group");
    exec::NamedBarrierOrder clocks(2);
    exec::MbarrierOrder order;
    order.reset(64, 2);
    order.init(0x100);
    const uint32_t group = grouped ? order.new_group() : 0;
    const auto e0 = clocks.acquire_lane(0, {});
    const auto e1 = clocks.acquire_lane(1, {});
    order.parity_passed(0x100, 0, e0.first, -1, e0.second, 1, group);
    order.parity_passed(0x100, 1, e1.first, -1, e1.second, 1, group);
    std::vector<uint32_t> by1;
    clocks.join_release(by1, 1, 0, 0);
    clocks.acquire_lane(32, by1);
    EXPECT_TRUE(order.arrive(clocks, 0x100, 32, 1, 0, 0, true, 1));
    EXPECT_EQ(order.complete(0x100, 0, 1), grouped);
  }
}

// NamedBarrierOrder on its own: a lane's lone acquire orders that lane only, until a full-warp
// synchronization.
TEST(MbarrierLoneWait, ALoneAcquireOrdersItsLaneOnlyUntilTheWarpSynchronizes) {
  exec::NamedBarrierOrder o(2); // warps 0 and 1, 64 threads
  std::vector<uint32_t> release;
  o.join_release(release, 40, 1, 5); // lane 8 of warp 1 releases warp 1's phases below 5
  const auto [column, after] = o.acquire_lane(3, release);
  EXPECT_GE(column, 2u) << "an event column after the warps'";
  ASSERT_NE(o.thread_clock(3), nullptr);
  EXPECT_EQ(o.thread_clock(3)[1], 5u);
  EXPECT_EQ(o.thread_clock(4)[1], 0u) << "another lane of warp 0 did not wait";
  EXPECT_EQ(o.clock(0)[1], 0u);
  EXPECT_TRUE(o.lanes_apart(0));
  // What lane 3 releases from now on carries its wait; lane 4's does not.
  std::vector<uint32_t> by3, by4;
  o.join_release(by3, 3, 0, 0);
  o.join_release(by4, 4, 0, 0);
  o.acquire_lane(33, by4);
  EXPECT_FALSE(o.ordered_after(33, column, after));
  EXPECT_EQ(o.thread_clock(33)[1], 0u);
  o.acquire_lane(34, by3);
  EXPECT_TRUE(o.ordered_after(34, column, after));
  EXPECT_EQ(o.thread_clock(34)[1], 5u) << "transitively";
  // A full-warp sync of warp 0 orders every lane of it after lane 3's wait.
  o.warp_synced(0, 0xffffffffu);
  EXPECT_FALSE(o.lanes_apart(0));
  EXPECT_EQ(o.thread_clock(4)[1], 5u);
  EXPECT_TRUE(o.ordered_after(4, column, after));
}

} // namespace
} // namespace volta::etest
