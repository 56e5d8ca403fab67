// CtaBarriers: the barrier bookkeeping both CTA machines share (completion with and without a
// thread count, bar.arrive, exits, count disagreements, the forms .aligned and sm_60 allow).
#include <gtest/gtest.h>
#include <vector>

#include "engine/exec/cta_barriers.hpp"

namespace volta::exec {
namespace {

using S = ThreadState;

// A program of `n` barrier instructions of form `sub` (kBarrierAligned, kBarrierWarpAligned, 0).
Program barriers_program(uint32_t n, uint8_t sub) {
  Program p;
  for (uint32_t i = 0; i < n; ++i) {
    Inst in;
    in.op = XOp::BarSync;
    in.sub = sub;
    in.line = 10 + i;
    in.text = "bar.sync 0";
    p.insts.push_back(in);
  }
  return p;
}

struct Cta {
  explicit Cta(uint32_t threads) : state(threads, S::Running), pc(threads, 0), bars(threads) {}
  void wait(uint32_t t, uint32_t id, uint32_t count, uint32_t at = 0) {
    state[t] = S::AtBarrier;
    pc[t] = at;
    EXPECT_TRUE(bars.wait(t, id, count));
  }
  std::vector<S> state;
  std::vector<uint32_t> pc;
  CtaBarriers bars;
};

TEST(CtaBarriers, WithoutCountEveryLiveThreadMustWaitAndExitsRelease) {
  Cta c(64);
  for (uint32_t t = 0; t < 63; ++t)
    c.wait(t, 0, 0);
  EXPECT_FALSE(c.bars.complete(0, c.state));
  c.state[63] = S::Exited; // the last thread exits instead: that releases the barrier
  EXPECT_TRUE(c.bars.complete(0, c.state));
  EXPECT_EQ(c.bars.waiting(c.state)[0], 63u);
  c.bars.release(0, c.state, c.pc);
  EXPECT_EQ(c.state[0], S::Running);
  EXPECT_EQ(c.pc[0], 1u);
  EXPECT_EQ(c.state[63], S::Exited);
}

TEST(CtaBarriers, WithCountArrivalsAreCountedPerWarp) {
  Cta c(96);
  for (uint32_t t = 0; t < 31; ++t) // 31 lanes of warp 0: the warp has not arrived
    c.wait(t, 1, 64);
  EXPECT_FALSE(c.bars.complete(1, c.state));
  c.wait(31, 1, 64); // warp 0 arrives: 32 of 64
  EXPECT_FALSE(c.bars.complete(1, c.state));
  EXPECT_TRUE(c.bars.arrive(1, 64)); // bar.arrive of another warp: 64
  EXPECT_TRUE(c.bars.complete(1, c.state));
  c.bars.release(1, c.state, c.pc);
  // The arrivals start over after the barrier completed.
  c.wait(0, 1, 64);
  EXPECT_FALSE(c.bars.complete(1, c.state));
}

TEST(CtaBarriers, AWarpWhoseLanesAllExitedNeverArrives) {
  Cta c(64);
  for (uint32_t t = 0; t < 32; ++t) {
    c.wait(t, 0, 64);
    c.state[32 + t] = S::Exited;
  }
  EXPECT_TRUE(c.bars.every_live_thread_waits(0, c.state));
  EXPECT_FALSE(c.bars.complete(0, c.state)); // a count: exits do not release it
  // A warp of which some lanes exited arrives once the others wait.
  Cta d(64);
  for (uint32_t t = 0; t < 48; ++t)
    d.wait(t, 0, 64);
  for (uint32_t t = 48; t < 64; ++t)
    d.state[t] = S::Exited;
  EXPECT_TRUE(d.bars.complete(0, d.state));
}

TEST(CtaBarriers, CountsThatDisagree) {
  Cta c(64);
  c.wait(0, 2, 64);
  EXPECT_FALSE(c.bars.wait(1, 2, 32)); // another count at the same barrier: undefined
  c.state[1] = S::AtBarrier;
  c.wait(2, 2, 0);
  const auto d = c.bars.count_mismatch(2, c.state);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->a, 0u);
  EXPECT_EQ(d->b, 1u);
  EXPECT_NE(d->message.find("different thread counts (0 and 32)"), std::string::npos)
      << d->message; // 64, every thread of the CTA, is the same as no count
  Cta e(64);
  e.wait(0, 2, 64);
  e.wait(1, 2, 0);
  EXPECT_FALSE(e.bars.count_mismatch(2, e.state).has_value());
}

TEST(CtaBarriers, AlignedBarrierReachedAtTwoInstructions) {
  const Program p = barriers_program(2, kBarrierAligned);
  Cta c(64);
  for (uint32_t t = 0; t < 64; ++t)
    c.wait(t, 0, 0, t < 32 ? 0 : 1);
  ASSERT_TRUE(c.bars.complete(0, c.state));
  const auto d = c.bars.form_divergence(0, p, c.state, c.pc);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->a, 0u);
  EXPECT_EQ(d->b, 32u);
  EXPECT_NE(d->message.find(".aligned"), std::string::npos) << d->message;
}

TEST(CtaBarriers, Sm70FormAllowsTwoInstructionsAndExitedLanes) {
  const Program p = barriers_program(2, 0); // barrier.sync without .aligned, sm_70
  Cta c(64);
  for (uint32_t t = 0; t < 60; ++t)
    c.wait(t, 0, 0, t % 2);
  for (uint32_t t = 60; t < 64; ++t)
    c.state[t] = S::Exited;
  ASSERT_TRUE(c.bars.complete(0, c.state));
  EXPECT_FALSE(c.bars.form_divergence(0, p, c.state, c.pc).has_value());
}

TEST(CtaBarriers, BelowSm70LanesOfAWarpMeetAtOneInstruction) {
  const Program p = barriers_program(2, kBarrierWarpAligned);
  Cta c(64);
  for (uint32_t t = 0; t < 64; ++t) // warps 0 and 1 at different instructions: allowed
    c.wait(t, 0, 0, t / 32);
  EXPECT_FALSE(c.bars.form_divergence(0, p, c.state, c.pc).has_value());
  c.pc[40] = 0; // a lane of warp 1 at the other one: not allowed
  const auto d = c.bars.form_divergence(0, p, c.state, c.pc);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->b, 40u);
  EXPECT_NE(d->message.find("below sm_70"), std::string::npos) << d->message;
  // A lane of a warp that takes part exited instead of reaching it.
  Cta e(32);
  for (uint32_t t = 0; t < 31; ++t)
    e.wait(t, 0, 0);
  e.state[31] = S::Exited;
  const auto x = e.bars.form_divergence(0, p, e.state, e.pc);
  ASSERT_TRUE(x.has_value());
  EXPECT_EQ(x->b, 31u);
  EXPECT_NE(x->message.find("exited without reaching it"), std::string::npos) << x->message;
}

// A named barrier's phase: producers at bar.arrive, consumers at bar.sync (an .aligned form at
// two instructions is fine with a thread count: each warp is at one), the words of a deadlock
// report, and a waiter whose count is not the phase's.
TEST(CtaBarriers, NamedBarrierPhase) {
  Cta c(96);
  Program p = barriers_program(2, kBarrierAligned);
  EXPECT_TRUE(c.bars.arrive(1, 96)); // warp 0 at bar.arrive
  for (uint32_t t = 32; t < 64; ++t)
    c.wait(t, 1, 96, 1); // warp 1 at bar.sync (instruction 1)
  EXPECT_EQ(c.bars.arrived(1, c.state), 64u);
  EXPECT_FALSE(c.bars.complete(1, c.state));
  EXPECT_EQ(c.bars.describe(1, c.state),
            "barrier 1 (thread count 96, 64 arrived; threads 32-63 wait)");
  EXPECT_FALSE(c.bars.form_divergence(1, p, c.state, c.pc).has_value());
  EXPECT_FALSE(c.bars.phase_count_mismatch(1, c.state).has_value());
  for (uint32_t t = 64; t < 96; ++t)
    c.wait(t, 1, 96, 0); // warp 2 at another bar.sync (instruction 0)
  EXPECT_TRUE(c.bars.complete(1, c.state));
  EXPECT_FALSE(c.bars.form_divergence(1, p, c.state, c.pc).has_value());
  c.bars.release(1, c.state, c.pc);
  EXPECT_EQ(c.bars.arrivals(1), 0u); // the next phase starts empty
  EXPECT_EQ(c.bars.expected(1), 0u);

  Cta d(128);
  EXPECT_TRUE(d.bars.arrive(2, 64));
  for (uint32_t t = 32; t < 64; ++t)
    d.wait(t, 2, 0); // no count: the CTA's 128 threads, not the phase's 64
  const auto m = d.bars.phase_count_mismatch(2, d.state);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->b, 32u);
  EXPECT_NE(m->message.find("thread count 64"), std::string::npos) << m->message;
}

} // namespace
} // namespace volta::exec
