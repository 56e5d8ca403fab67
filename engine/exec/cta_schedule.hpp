// The run loop of a CTA, written once for both CTA machines (the symbolic CtaRunner and the
// emulator's Cta): warps run in turn, each warp runs the lanes at its smallest pc until none of
// its lanes can run (warp_schedule.hpp), then the barriers that every participant reached fire;
// when no warp ran and no barrier fired, the CTA is stuck. Exits (ret, exit, falling off the end
// of the kernel) go through exit_lanes, which wakes the warp's lanes waiting at a collective.
//
// Generic over the machine, whose hooks are member functions called directly, the small ones
// inline (no call through a pointer per instruction: the symbolic engine's hot loop is this
// one). A machine M provides
//   ThreadState* states(); uint32_t* pcs(); uint32_t threads(), warps(), program_size() const;
//   const Inst& instruction(pc)  the decoded instruction at pc
//   bool stopped() const         a failure stopped the CTA (a machine that throws: false)
//   bool round_may_start()       before each round over the warps: cancellation (false: stop)
//   bool round_may_end()         after a round: the instruction budget (false: stop)
//   bool fire_barriers()         fires a barrier that every participant reached: true if one did
//   void report_stuck()          no warp can run and no barrier fires (a deadlock)
//   bool begin_instruction(pc, w, mask, lanes)  before an instruction (false: leave the warp)
//   void execute(const Inst&, pc, w, mask)      the instruction for the lanes of mask
//   uint32_t next_pc_hint()      after execute: the warp's next pc when every lane of mask is
//                                running there and no other lane changed state; else kNoPcHint
//   bool end_instruction(const Inst&, pc, w, mask, lanes)  after it (false: leave the warp)
//   void end_warp()              the warp stops running (counters flushed)
//   void on_exit(t)              thread t exits (before its state becomes Exited)
// The machines differ in their value domains and in how they stop: the engine reports a Failure
// and sets stopped(), the emulator throws from a hook.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "engine/exec/warp_schedule.hpp"
#include "support/invariant.hpp"

namespace volta::exec {

inline constexpr uint32_t kNoPcHint = UINT32_MAX;

// The lanes of `mask` of warp `w` exit. Lanes of the warp waiting at a warp collective may have
// waited for them, which no longer take part (a member mask may name exited lanes): they run
// again and retry the collective, which gathers the members still live.
template <class M>
void exit_lanes(M& m, uint32_t w, uint32_t mask) {
  ThreadState* state = m.states();
  const uint32_t base = w * 32;
  for (; mask != 0; mask &= mask - 1) {
    const uint32_t t = base + static_cast<uint32_t>(std::countr_zero(mask));
    m.on_exit(t);
    state[t] = ThreadState::Exited;
  }
  const uint32_t n = std::min<uint32_t>(32, m.threads() - base);
  for (uint32_t l = 0; l < n; ++l) {
    if (state[base + l] == ThreadState::AtCollective)
      state[base + l] = ThreadState::Running;
  }
}

// The lanes of `mask` of warp `w` jump to `target`.
inline void take_branch(uint32_t* pc, uint32_t w, uint32_t mask, uint32_t target) {
  const uint32_t base = w * 32;
  for (; mask != 0; mask &= mask - 1)
    pc[base + std::countr_zero(mask)] = target;
}

// Runs warp `w` until none of its lanes can run (each waits at a barrier or a collective, or
// exited) or the machine stops.
template <class M>
void run_warp(M& m, uint32_t w) {
  const uint32_t base = w * 32;
  const uint32_t n = std::min<uint32_t>(32, m.threads() - base);
  const uint32_t size = m.program_size();
  uint32_t mask = 0;
  uint32_t lanes = 0;
  // Every running lane of the warp is in `mask`: then the machine's hint is the next pc.
  bool converged = false;
  uint32_t hint = kNoPcHint;
  while (!m.stopped()) {
    uint32_t pc = UINT32_MAX;
    if (converged && hint < size) {
      pc = hint;
    } else {
      // The lanes at the smallest pc among the runnable ones.
      const NextLanes next = lowest_pc_lanes(m.states(), m.pcs(), base, n);
      pc = next.pc;
      mask = next.mask;
      converged = mask == next.running;
      lanes = static_cast<uint32_t>(std::popcount(mask));
    }
    if (mask == 0)
      break;
    if (pc >= size) {
      // Falling off the end of the kernel is an implicit return.
      exit_lanes(m, w, mask);
      hint = kNoPcHint;
      converged = false;
      continue;
    }
    // Scheduler invariant: the lanes it runs are running lanes of this warp, all at pc.
    VOLTA_ASSERT((mask & ~existing_lanes_of(m.threads(), w)) == 0,
                 "the scheduled lanes belong to the warp");
    VOLTA_ASSERT((mask & ~lanes_in_state(m.states(), m.threads(), w, ThreadState::Running)) == 0,
                 "the scheduled lanes are running");
    VOLTA_ASSERT(m.pcs()[base + static_cast<uint32_t>(std::countr_zero(mask))] == pc,
                 "the scheduled lanes are at the instruction executed");
    if (!m.begin_instruction(pc, w, mask, lanes))
      break;
    const Inst& in = m.instruction(pc);
    m.execute(in, pc, w, mask);
    hint = m.next_pc_hint();
    if (!m.end_instruction(in, pc, w, mask, lanes))
      break;
  }
  m.end_warp();
}

// Runs the CTA until every thread exited, the CTA is stuck (report_stuck) or the machine
// stops. Returns false when it stopped early (a round refused to start or end).
template <class M>
bool run_cta(M& m) {
  const uint32_t warps = m.warps();
  while (!m.stopped()) {
    if (!m.round_may_start())
      return false;
    bool ran = false;
    for (uint32_t w = 0; w < warps && !m.stopped(); ++w) {
      if (lanes_in_state(m.states(), m.threads(), w, ThreadState::Running) != 0) {
        run_warp(m, w);
        ran = true;
      }
    }
    if (m.stopped())
      break;
    if (!m.round_may_end())
      return false;
    const ThreadState* state = m.states();
    if (std::all_of(state, state + m.threads(),
                    [](ThreadState s) { return s == ThreadState::Exited; }))
      break;
    if (m.fire_barriers())
      continue;
    if (m.stopped())
      break;
    if (!ran) {
      m.report_stuck();
      break;
    }
  }
  return true;
}

} // namespace volta::exec
