// The scheduling both CTA machines share (warp_schedule.hpp): the lanes a warp runs next, the
// lanes in a state, and the gathering of a warp collective's member lanes.
#include <gtest/gtest.h>
#include <vector>

#include "engine/exec/warp_schedule.hpp"

namespace volta::exec {
namespace {

using S = ThreadState;

TEST(WarpSchedule, LowestPcLanesRunFirst) {
  std::vector<S> state(40, S::Running);
  std::vector<uint32_t> pc(40, 7);
  pc[3] = 5;
  pc[9] = 5;
  state[9] = S::AtBarrier; // not running: not picked
  pc[33] = 2;              // another warp
  const NextLanes next = lowest_pc_lanes(state.data(), pc.data(), 0, 32);
  EXPECT_EQ(next.pc, 5u);
  EXPECT_EQ(next.mask, 1u << 3);
  EXPECT_EQ(next.running, 0xffffffffu & ~(1u << 9));
  const NextLanes last = lowest_pc_lanes(state.data(), pc.data(), 32, 8);
  EXPECT_EQ(last.pc, 2u);
  EXPECT_EQ(last.mask, 1u << 1);
  EXPECT_EQ(last.running, 0xffu);
  EXPECT_EQ(existing_lanes_of(40, 1), 0xffu);
  EXPECT_EQ(existing_lanes_of(40, 0), 0xffffffffu);
  state[34] = S::Exited;
  EXPECT_EQ(lanes_in_state(state.data(), 40, 1, S::Exited), 1u << 2);
}

Program program_of(std::vector<XOp> ops) {
  Program p;
  for (XOp op : ops) {
    Inst in;
    in.op = op;
    p.insts.push_back(in);
  }
  return p;
}

TEST(WarpSchedule, CollectiveWaitsForEveryMemberThenRunsThemTogether) {
  const Program p = program_of({XOp::Shfl, XOp::Shfl});
  std::vector<S> state(32, S::Running);
  std::vector<uint32_t> pc(32, 0);
  auto join_same = [](uint32_t, bool same) { return same ? WaitingLane::Join : WaitingLane::Skip; };
  uint32_t mask = 0x0000ffffu; // half the warp arrives first
  EXPECT_FALSE(
      gather_collective_lanes(p, state.data(), pc.data(), 0, 0, mask, 0xffffffffu, join_same));
  EXPECT_EQ(state[0], S::AtCollective);
  EXPECT_EQ(state[16], S::Running);
  mask = 0xffff0000u; // the other half
  EXPECT_TRUE(
      gather_collective_lanes(p, state.data(), pc.data(), 0, 0, mask, 0xffffffffu, join_same));
  EXPECT_EQ(mask, 0xffffffffu);
  EXPECT_EQ(state[0], S::Running);
  // Lanes waiting at another shfl are not this collective's.
  for (uint32_t l = 0; l < 16; ++l) {
    state[l] = S::AtCollective;
    pc[l] = 1;
  }
  mask = 0xffff0000u;
  EXPECT_FALSE(
      gather_collective_lanes(p, state.data(), pc.data(), 0, 0, mask, 0xffffffffu, join_same));
  // A machine's check may stop the gathering (it reported a failure).
  mask = 0xffff0000u;
  for (uint32_t l = 0; l < 16; ++l)
    pc[l] = 0;
  EXPECT_FALSE(gather_collective_lanes(p, state.data(), pc.data(), 0, 0, mask, 0xffffffffu,
                                       [](uint32_t, bool) { return WaitingLane::Stop; }));
}

// __syncwarp() from two program points is one warp barrier (sm_70); other collectives meet at
// one instruction.
TEST(WarpSchedule, WarpSyncMeetsAcrossProgramPoints) {
  const Program p = program_of({XOp::BarWarpSync, XOp::BarWarpSync, XOp::Vote, XOp::Vote});
  EXPECT_TRUE(same_collective_point(p, 0, 1));
  EXPECT_TRUE(same_collective_point(p, 2, 2));
  EXPECT_FALSE(same_collective_point(p, 2, 3));
  EXPECT_FALSE(same_collective_point(p, 1, 2));
}

} // namespace
} // namespace volta::exec
