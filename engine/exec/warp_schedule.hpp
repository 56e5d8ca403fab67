// The scheduling both CTA machines share (the symbolic CtaRunner and the emulator's Cta): thread
// states, the lanes of a warp in each state, which lanes a warp runs next (the running lanes at
// the smallest pc: divergent paths reconverge at the first instruction both reach), and the
// gathering of a warp collective's member lanes. Inline, over the machines' own state arrays,
// and generic over what a machine checks of a waiting lane: no call through a pointer per lane.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <fmt/format.h>
#include <optional>
#include <string>

#include "engine/exec/program.hpp"

namespace volta::exec {

// Where a thread of a CTA is. AtMbarrier: blocked at an mbarrier wait until its phase completes
// (cta_mbarriers.hpp; the machine that completes the phase releases it).
enum class ThreadState : uint8_t { Running, AtBarrier, AtCollective, AtMbarrier, Exited };

// The lanes of warp `w` of a CTA of `threads` threads (all 32 but in a last, partial warp).
inline uint32_t existing_lanes_of(uint32_t threads, uint32_t w) {
  const uint32_t n = std::min<uint32_t>(32, threads - w * 32);
  return n == 32 ? 0xffffffffu : (1u << n) - 1;
}

// The lanes of warp `w` whose state is `s`.
inline uint32_t lanes_in_state(const ThreadState* state, uint32_t threads, uint32_t w,
                               ThreadState s) {
  uint32_t mask = 0;
  const uint32_t base = w * 32;
  const uint32_t n = std::min<uint32_t>(32, threads - base);
  for (uint32_t l = 0; l < n; ++l) {
    if (state[base + l] == s)
      mask |= 1u << l;
  }
  return mask;
}

// The running lanes of a warp at the smallest pc (`mask`, none: 0), and every running lane.
struct NextLanes {
  uint32_t pc = UINT32_MAX;
  uint32_t mask = 0;
  uint32_t running = 0;
};
inline NextLanes lowest_pc_lanes(const ThreadState* state, const uint32_t* pc, uint32_t base,
                                 uint32_t n) {
  NextLanes next;
  for (uint32_t l = 0; l < n; ++l) {
    if (state[base + l] != ThreadState::Running)
      continue;
    next.running |= 1u << l;
    const uint32_t p = pc[base + l];
    if (p < next.pc) {
      next.pc = p;
      next.mask = 1u << l;
    } else if (p == next.pc) {
      next.mask |= 1u << l;
    }
  }
  return next;
}

// Whether lanes waiting at `other` meet the lanes at `pc` in one warp collective: the same
// instruction, or two bar.warp.sync (on sm_70 and later lanes at different __syncwarp() calls
// with the same mask synchronize together). shfl.sync, vote.sync and the .aligned matrix
// instructions are matched only at the same instruction.
inline bool same_collective_point(const Program& prog, uint32_t pc, uint32_t other) {
  return pc == other ||
         (prog.insts[pc].op == XOp::BarWarpSync && prog.insts[other].op == XOp::BarWarpSync);
}

// The lanes of a warp that execute one collective with a member mask (shfl.sync, vote.sync,
// bar.warp.sync) together, and their mask.
struct MemberGroup {
  uint32_t lanes = 0;       // a subset of the lanes at the instruction
  uint32_t member_mask = 0; // their member mask
  // Undefined behaviour, in words (empty: none), and the lane it is about.
  std::string problem;
  uint32_t problem_lane = 0;
};

// The lanes of `mask` (at one collective with a member mask) that execute it now: the first
// lane's group, every lane of `mask` whose member mask is the first lane's. A lane whose mask is
// disjoint from that one belongs to another group of the same instruction: it stays at the
// instruction and runs with its own group next. Undefined behaviour (PTX ISA, shfl.sync,
// vote.sync, bar.warp.sync) is a lane whose mask leaves itself out, and two lanes whose
// different masks name each other (they disagree on who synchronizes). `mask_of(l)` reads lane
// l's member mask, nullopt when the machine cannot (it has reported why): then nullopt.
template <class MaskOf>
std::optional<MemberGroup> member_group(uint32_t mask, MaskOf&& mask_of) {
  MemberGroup g;
  uint32_t first_lane = 0;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
    const std::optional<uint32_t> lane_mask = mask_of(l);
    if (!lane_mask)
      return std::nullopt;
    if (((*lane_mask >> l) & 1u) == 0) {
      g.problem = fmt::format("lane {} executes it with member mask 0x{:08x}, which does not "
                              "include the lane itself: undefined behaviour",
                              l, *lane_mask);
      g.problem_lane = l;
      return g;
    }
    if (g.lanes == 0) {
      g.lanes = 1u << l;
      g.member_mask = *lane_mask;
      first_lane = l;
    } else if (*lane_mask == g.member_mask) {
      g.lanes |= 1u << l;
    } else if ((*lane_mask & g.member_mask) != 0) {
      g.problem = fmt::format("lanes {} and {} execute it with different member masks (0x{:08x} "
                              "and 0x{:08x}) that name each other: undefined behaviour",
                              first_lane, l, g.member_mask, *lane_mask);
      g.problem_lane = l;
      return g;
    }
  }
  return g;
}

// What a machine makes of a member lane that waits at a collective (Join: it takes part now;
// Skip: it waits for another one; Stop: the machine reported a failure).
enum class WaitingLane : uint8_t { Join, Skip, Stop };

// The lanes of `mask` (warp at `base`, all at `pc`) reach a warp collective whose member lanes
// are `members`. Every member lane must have arrived: the lanes waiting at a collective (state
// AtCollective) are offered to `check(t, same_point)`, same_point telling whether they wait at
// this collective (same_collective_point). When every member arrived, they all run again and
// `mask` becomes them: true. Otherwise the lanes of `mask` wait (AtCollective): false; false as
// well when `check` stopped.
template <class Check>
bool gather_collective_lanes(const Program& prog, ThreadState* state, const uint32_t* pc_of,
                             uint32_t base, uint32_t pc, uint32_t& mask, uint32_t members,
                             Check&& check) {
  uint32_t arrived = mask;
  for (uint32_t m = members & ~mask; m != 0; m &= m - 1) {
    const uint32_t t = base + static_cast<uint32_t>(std::countr_zero(m));
    if (state[t] != ThreadState::AtCollective)
      continue;
    switch (check(t, same_collective_point(prog, pc, pc_of[t]))) {
    case WaitingLane::Join:
      arrived |= 1u << (t - base);
      break;
    case WaitingLane::Skip:
      break;
    case WaitingLane::Stop:
      return false;
    }
  }
  if ((arrived & members) != members) {
    for (uint32_t m = mask; m != 0; m &= m - 1)
      state[base + std::countr_zero(m)] = ThreadState::AtCollective;
    return false;
  }
  for (uint32_t m = arrived; m != 0; m &= m - 1)
    state[base + std::countr_zero(m)] = ThreadState::Running;
  mask = arrived;
  return true;
}

} // namespace volta::exec
