// The bookkeeping of a CTA's barriers (PTX ISA, "barrier", "bar"), shared by both CTA machines:
// the symbolic CtaRunner (exec_barrier.cpp) and the emulator's Cta (emulate/machine.cpp). It
// knows which thread waits at which barrier with which thread count, the arrivals of bar.arrive,
// when a barrier completes, whether the waiting threads reached it in the forms the
// instructions allow, and how to release it. What a machine refuses, and how it reports a
// divergence or a deadlock, stays with the machine.
//
// Completion: a barrier without a thread count completes when every thread that has not exited
// waits at it (an exit releases such a barrier, PTX ISA "exit"). One with a count completes
// after `count` arrivals, counted per warp ("marks the warp's arrival at the barrier" once every
// non-exited thread of the warp executed it): a warp arrives (32 arrivals) once every lane of it
// that has not exited waits there, and a bar.arrive of a warp counts 32; a warp whose lanes all
// exited never arrives. The machines check completion after each bar.arrive (a phase may
// complete without a waiter) and when no warp can run; then the barrier is reinitialized for its
// next phase. More arrivals than the count at completion (which of them make the phase depends
// on the order in which they came) is a machine's to report.
//
// Forms: an `.aligned` instruction (`bar.sync`, `bar.arrive` are `barrier.sync.aligned`,
// `barrier.arrive.aligned`) without a thread count is executed by every thread at that one
// instruction; with a thread count (a named barrier over part of the CTA: producer warps
// arrive at one instruction, consumers wait at another) by every thread of each warp that takes
// part at one instruction. Below sm_70 the lanes of a warp reach any barrier at one instruction;
// in these cases no lane of a warp that takes part may have exited. `barrier.sync` (sm_70 and
// later) lets threads arrive from different instructions. Anything else is undefined behaviour
// (BARRIER_DIVERGENCE).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/exec/program.hpp"
#include "engine/exec/warp_schedule.hpp"

namespace volta::exec {

// Two threads that reached one barrier in a way the instruction forms do not allow: `a` at an
// instruction whose form `b` breaks.
struct BarrierDivergence {
  uint32_t a = 0;
  uint32_t b = 0;
  std::string message;
};

class CtaBarriers {
public:
  static constexpr uint32_t kBarriers = 16; // ids 0..15

  explicit CtaBarriers(uint32_t threads = 0) { reset(threads); }
  void reset(uint32_t threads);

  // Thread t waits at barrier `id` (< kBarriers) with the thread count of its instruction (0:
  // none). The caller sets its state to AtBarrier. False when the count differs from the one
  // an earlier arrival gave the barrier (undefined behaviour; the thread waits all the same).
  bool wait(uint32_t t, uint32_t id, uint32_t count);
  // A warp executes bar.arrive on `id` with `count` (> 0): 32 arrivals, no waiting. False as
  // for wait().
  bool arrive(uint32_t id, uint32_t count);

  // The thread count of barrier `id`'s current phase (0: no arrival with one yet), and the
  // arrivals of bar.arrive in it.
  uint32_t expected(uint32_t id) const { return expected_[id]; }
  uint32_t arrivals(uint32_t id) const { return arrivals_[id]; }
  // The arrivals at barrier `id` (a count): those of bar.arrive, and 32 per warp whose every
  // lane that has not exited waits there.
  uint32_t arrived(uint32_t id, std::span<const ThreadState> state) const;
  // Whether every lane of warp `w` that has not exited waits at `id` (and one does).
  bool warp_waits(uint32_t w, uint32_t id, std::span<const ThreadState> state) const;
  // Barrier `id` and who waits there, in words, for a deadlock report: "barrier 1 (thread count
  // 96, 64 arrived; threads 0-63 wait)".
  std::string describe(uint32_t id, std::span<const ThreadState> state) const;

  uint32_t id_of(uint32_t t) const { return id_[t]; }
  uint32_t count_of(uint32_t t) const { return count_[t]; }
  bool waits_at(std::span<const ThreadState> state, uint32_t t, uint32_t id) const {
    return state[t] == ThreadState::AtBarrier && id_[t] == id;
  }
  // The threads waiting at each barrier.
  std::vector<uint32_t> waiting(std::span<const ThreadState> state) const;

  // Whether every thread that has not exited waits at `id`.
  bool every_live_thread_waits(uint32_t id, std::span<const ThreadState> state) const;
  // Whether barrier `id` completes now (the rule above).
  bool complete(uint32_t id, std::span<const ThreadState> state) const;
  // Two waiters of barrier `id` whose thread counts differ (a count of the CTA's every thread
  // is the same as none), or nullopt.
  std::optional<BarrierDivergence> count_mismatch(uint32_t id,
                                                  std::span<const ThreadState> state) const;
  // A waiter of `id` whose thread count (none: the CTA's every thread) is not the count the
  // phase's arrivals gave it (bar.arrive included), or nullopt. `b` is the waiter; `a` the same.
  std::optional<BarrierDivergence> phase_count_mismatch(uint32_t id,
                                                        std::span<const ThreadState> state) const;
  // The first pair of waiters of `id` that breaks the instruction forms (above), or nullopt.
  std::optional<BarrierDivergence> form_divergence(uint32_t id, const Program& prog,
                                                   std::span<const ThreadState> state,
                                                   std::span<const uint32_t> pc) const;
  // The waiters of `id` go on past the barrier (Running, pc + 1); its arrivals start over.
  void release(uint32_t id, std::span<ThreadState> state, std::span<uint32_t> pc);

private:
  uint32_t threads_ = 0;
  uint32_t warps_ = 0;
  std::vector<uint8_t> id_;     // AtBarrier: which barrier
  std::vector<uint32_t> count_; // AtBarrier: the instruction's thread count (0: none)
  // Per barrier: the count of the last arrival with one (0: none yet), and the arrivals of
  // bar.arrive since it last completed.
  uint32_t expected_[kBarriers] = {};
  uint32_t arrivals_[kBarriers] = {};
};

} // namespace volta::exec
