// CTA barriers (PTX ISA, "barrier", "bar") in the symbolic CTA: arrival, firing, and the ways a
// kernel can use one wrongly. A barrier is its id (0..15). One that every thread that has not
// exited waits at (no thread count, or the CTA's every thread) fires when all arrived, and the
// CTA enters a new epoch of the race check, which orders everything before with everything
// after. A named barrier (a thread count below the CTA's threads, or any barrier that bar.arrive
// signals) completes after `count` arrivals counted per warp, releases its waiters, and orders
// for the race check only what its phase's arrivals released before what its waiters do after
// (NamedBarrierOrder, named_barrier_order.hpp). The bookkeeping (who waits where, completion,
// the instruction forms `.aligned` and below sm_70 allow) is CtaBarriers (cta_barriers.hpp),
// shared with the emulator; this file holds what the symbolic CTA refuses and how it reports a
// divergence or a deadlock. An exit releases a barrier without a thread count that only the
// exiting threads held up; a barrier with a count waits for `count` arrivals, which exited
// threads never make.
#include <algorithm>
#include <bit>
#include <cassert>
#include <fmt/format.h>

#include "engine/exec/cta_runner.hpp"
#include "support/invariant.hpp"

namespace volta::exec {

namespace {
// The BARRIER_DIVERGENCE message of an arrival whose thread count is not its phase's.
std::string count_mismatch(const Inst& in, std::string_view verb, uint32_t bar, uint32_t count,
                           uint32_t before) {
  return fmt::format("'{}' (PTX line {}) {} barrier {} with thread count {}, but an earlier "
                     "arrival in this phase of the barrier gave it thread count {} (undefined "
                     "behaviour)",
                     in.text, in.line, verb, bar, count, before);
}
} // namespace

void CtaRunner::exec_bar(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t first = base + std::countr_zero(mask);
  auto id = concrete_operand(in.srcs[0], first, "a barrier id");
  if (!id)
    return;
  uint32_t count = 0;
  if (in.srcs.size() > 1) {
    auto c = concrete_operand(in.srcs[1], first, "a barrier thread count");
    if (!c)
      return;
    count = static_cast<uint32_t>(*c);
    if (count == 0 || count % 32 != 0) {
      fail(Verdict::BarrierDivergence, "barrier divergence",
           fmt::format(
               "barrier thread count {} is not a positive multiple of the warp size (PTX line {})",
               count, in.line),
           first);
      return;
    }
  }
  if (*id >= 16) {
    fail_unsupported(in, first, fmt::format("uses barrier {} (PTX allows 0 to 15)", *id));
    return;
  }
  // The warp arrives as one: its lanes name one barrier and one count (operands in registers
  // may differ between lanes, which is undefined).
  for (uint32_t m = mask & (mask - 1); m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    auto other_id = concrete_operand(in.srcs[0], t, "a barrier id");
    if (!other_id)
      return;
    std::optional<uint64_t> other_count = uint64_t{0};
    if (in.srcs.size() > 1 && !(other_count = concrete_operand(in.srcs[1], t,
                                                               "a barrier thread "
                                                               "count")))
      return;
    if (*other_id != *id || static_cast<uint32_t>(*other_count) != count) {
      fail(Verdict::BarrierDivergence, "barrier divergence",
           fmt::format("lanes of warp {} execute '{}' (PTX line {}) with different barrier ids or "
                       "thread counts (threads {} and {}): undefined behaviour",
                       w, in.text, in.line, first, t),
           t);
      return;
    }
  }
  const uint32_t bar = static_cast<uint32_t>(*id);
  if (in.op == XOp::BarArrive) {
    exec_arrive(in, pc, w, mask, bar, count);
    return;
  }
  if (count > threads_) {
    // bar.sync waits for `count` threads, and a CTA has no more than threads_ of them: without
    // bar.arrive each warp arrives once per phase, and the barrier never completes. (Within the
    // last, partial warp the hardware may count a warp as 32 threads: not modeled.) A warp that
    // arrives and then waits counts twice, so with bar.arrive in the kernel such a count is
    // refused rather than called a deadlock.
    const uint32_t warp_threads = warps_ * 32;
    const bool arrives = std::ranges::any_of(
        prog_.insts, [](const Inst& other) { return other.op == XOp::BarArrive; });
    if (arrives) {
      fail_unsupported(in, first,
                       fmt::format("waits for {} threads, more than the CTA's {}, in a kernel with "
                                   "bar.arrive: only warps that arrive more than once in a phase "
                                   "could complete it (not modeled)",
                                   count, threads_));
    } else if (count > warp_threads) {
      fail(Verdict::Deadlock, "deadlock",
           fmt::format("'{}' (PTX line {}) waits for {} threads, but the CTA has only {}: the "
                       "barrier can never complete",
                       in.text, in.line, count, threads_),
           first);
    } else {
      fail_unsupported(in, first,
                       fmt::format("waits for {} threads, more than the CTA's {} but no more than "
                                   "its {} warps hold (whether the partial warp counts as 32 "
                                   "threads is not modeled)",
                                   count, threads_, warp_threads));
    }
    return;
  }
  const uint32_t before = barriers_.expected(bar);
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    // Copies of cp.async are not ordered by barriers, but completed ones are visible. Threads
    // waiting with different counts are reported when the barrier would fire (count_mismatch).
    VOLTA_ASSERT(state_[t] == ThreadState::Running, "only a running thread arrives at a barrier");
    VOLTA_ASSERT(bar < CtaBarriers::kBarriers, "barrier ids are 0..15");
    state_[t] = ThreadState::AtBarrier;
    pc_[t] = pc;
    if (!barriers_.wait(t, bar, count)) {
      fail(Verdict::BarrierDivergence, "barrier divergence",
           count_mismatch(in, "waits at", bar, count, before), t);
      return;
    }
  }
}

void CtaRunner::exec_arrive(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask, uint32_t id,
                            uint32_t count) {
  // bar.arrive signals the warp's arrival and goes on (PTX ISA: it "does not cause the
  // executing thread to wait for threads of other participating warps"). Its thread count is
  // required (the lowering checks it) and is the phase's as for any arrival.
  const uint32_t base = w * 32;
  const uint32_t first = base + std::countr_zero(mask);
  VOLTA_ASSERT(count != 0, "the lowering requires bar.arrive's thread count");
  const uint32_t live = existing_lanes(w) & ~exited_lanes(w);
  if (mask != live) {
    // The warp arrives once all its non-exited lanes executed the instruction; lanes that reach
    // it apart (barrier.arrive without .aligned, sm_70 and later) are not modeled.
    fail_unsupported(
        in, first,
        fmt::format("is executed by lanes 0x{:08x} of warp {} while its lanes 0x{:08x} "
                    "have not exited: a warp that arrives in parts is not modeled",
                    mask, w, live));
    return;
  }
  const uint32_t before = barriers_.expected(id);
  if (!barriers_.arrive(id, count)) {
    fail(Verdict::BarrierDivergence, "barrier divergence",
         count_mismatch(in, "arrives at", id, count, before), first);
    return;
  }
  if (!named_.arrive(id, w, warp_phase_[w], stamp_))
    note_schedule_dependence(id, w, first);
  // A new phase of the warp, which orders none of its lanes: what the lanes do from here on is
  // not released by this arrival (race_shadow.hpp, WarpSyncLog).
  ++warp_phase_[w];
  warp_syncs_[w].masks.push_back(0);
  for (uint32_t m = mask; m != 0; m &= m - 1)
    pc_[base + std::countr_zero(m)] = pc + 1;
  // The phase may complete now, with or without a thread waiting.
  if (barriers_.complete(id, state_))
    (void)complete_named(id);
}

void CtaRunner::note_schedule_dependence(uint32_t id, uint32_t w, uint32_t t) {
  if (!schedule_dependence_.empty())
    return;
  note_schedule_dependence(
      fmt::format(
          "arrives at barrier {} (warp {}) in a phase that another schedule may complete without "
          "it, or before it: the warp is not ordered after the completion of the barrier's "
          "previous phase, so which arrivals make each phase depends on the schedule (not "
          "modeled)",
          id, w),
      t);
}

void CtaRunner::note_schedule_dependence(std::string why, uint32_t t) {
  if (!schedule_dependence_.empty())
    return;
  schedule_dependence_ = std::move(why);
  schedule_dependence_thread_ = t;
  schedule_dependence_pc_ = state_[t] == ThreadState::AtBarrier ? pc_[t] : current_pc_;
}

void CtaRunner::report_divergence(BarrierDivergence d) {
  Failure f;
  f.verdict = Verdict::BarrierDivergence;
  f.kind = "barrier divergence";
  f.message = std::move(d.message);
  f.first = site(d.a, pc_[d.a]);
  f.second = site(d.b, pc_[d.b]);
  failed_ = true;
  ctx_.report(cta_, std::move(f));
}

bool CtaRunner::complete_named(uint32_t id) {
  const uint32_t expected = barriers_.expected(id);
  VOLTA_ASSERT(expected != 0, "a named barrier has a thread count");
  if (auto d = barriers_.phase_count_mismatch(id, state_)) {
    current_pc_ = pc_[d->b];
    fail(Verdict::BarrierDivergence, "barrier divergence", d->message, d->b);
    return false;
  }
  if (auto d = barriers_.form_divergence(id, prog_, state_, pc_)) {
    report_divergence(std::move(*d));
    return false;
  }
  // The waiting warps, each with every lane that has not exited: a lane of a warp that waits
  // while another lane of it has not arrived holds the warp's arrival back.
  std::vector<uint32_t> warps;
  for (uint32_t w = 0; w < warps_; ++w) {
    uint32_t here = 0;
    for (uint32_t l = 0; l < 32 && w * 32 + l < threads_; ++l)
      here |= barriers_.waits_at(state_, w * 32 + l, id) ? 1u << l : 0u;
    if (here == 0)
      continue;
    if (!barriers_.warp_waits(w, id, state_)) {
      const uint32_t t = w * 32 + std::countr_zero(here);
      current_pc_ = pc_[t];
      fail_unsupported(prog_.insts[pc_[t]], t,
                       fmt::format("waits at barrier {} with lanes 0x{:08x} of warp {} while other "
                                   "lanes of the warp have neither exited nor arrived, and the "
                                   "barrier's phase completes: a warp that arrives in parts is not "
                                   "modeled",
                                   id, here, w));
      return false;
    }
    warps.push_back(w);
  }
  const uint32_t arrived = barriers_.arrived(id, state_);
  if (arrived > expected) {
    const uint32_t t = warps.empty() ? 0 : warps.back() * 32;
    current_pc_ = warps.empty() ? current_pc_ : pc_[t];
    fail_unsupported(prog_.insts[current_pc_], t,
                     fmt::format("completes barrier {} with {} arrivals for a thread count of {}: "
                                 "which of the arrivals make the phase depends on the schedule "
                                 "(not modeled)",
                                 id, arrived, expected));
    return false;
  }
  // The waiters arrive (release) now: they did not run since they reached the barrier.
  for (uint32_t w : warps) {
    if (!named_.arrive(id, w, warp_phase_[w], stamp_)) {
      uint32_t t = w * 32;
      while (!barriers_.waits_at(state_, t, id))
        ++t;
      note_schedule_dependence(id, w, t);
    }
  }
  barriers_.release(id, state_, pc_);
  // Each waiting warp acquires; every lane of it took part: a full-warp order of its lanes.
  std::vector<std::pair<uint32_t, uint32_t>> waiters;
  for (uint32_t w : warps) {
    ++warp_phase_[w];
    warp_syncs_[w].full_phase = warp_phase_[w];
    warp_syncs_[w].masks.clear();
    waiters.emplace_back(w, warp_phase_[w]);
  }
  named_.complete(id, waiters, stamp_);
  for (uint32_t w : warps) // every lane took part: what one acquired alone orders them all
    named_.warp_synced(w, existing_lanes(w) & ~exited_lanes(w));
  ++stats_.barriers;
  return true;
}

bool CtaRunner::fire_barriers() {
  const std::vector<uint32_t> waiting = barriers_.waiting(state_);
  for (uint32_t id = 0; id < CtaBarriers::kBarriers; ++id) {
    if (waiting[id] == 0)
      continue;
    if (auto d = barriers_.count_mismatch(id, state_)) {
      current_pc_ = pc_[d->b]; // the report points at the barrier, not the last instruction run
      fail(Verdict::BarrierDivergence, "barrier divergence", d->message, d->b);
      return false;
    }
    // Every waiter has the count of the first (0: none, or the CTA's every thread).
    uint32_t first = 0;
    while (!barriers_.waits_at(state_, first, id))
      ++first;
    const uint32_t expected = barriers_.count_of(first);
    const bool named = barriers_.arrivals(id) != 0 || (expected != 0 && expected < threads_);
    if (named) {
      // A named barrier: it completes after `count` arrivals, and orders only its phase.
      if (!barriers_.complete(id, state_))
        continue;
      return complete_named(id);
    }
    if (!barriers_.every_live_thread_waits(id, state_))
      continue; // somebody has not arrived yet
    if (auto d = barriers_.form_divergence(id, prog_, state_, pc_)) {
      report_divergence(std::move(*d));
      return false;
    }
    if (waiting[id] < threads_ && !released_by_exits(id))
      return false;
    // A CTA-wide barrier that every live thread reached completes (an exited warp of a barrier
    // with a count was refused above): the shared rule agrees.
    VOLTA_ASSERT(barriers_.complete(id, state_),
                 "a CTA-wide barrier every live thread reached completes");
    barriers_.release(id, state_, pc_);
    ++stats_.barriers;
    stamp_ = ctx_.next_stamp.fetch_add(1); // a new epoch
    // Accesses before the barrier are ordered by its new epoch: the partial syncs that ordered
    // some of them matter no more.
    for (uint32_t w = 0; w < warps_; ++w) {
      warp_syncs_[w].full_phase = warp_phase_[w];
      warp_syncs_[w].masks.clear();
      named_.warp_synced(w, existing_lanes(w) & ~exited_lanes(w));
    }
    return true;
  }
  return false;
}

bool CtaRunner::released_by_exits(uint32_t id) {
  // Every thread that has not exited waits at barrier `id`. "As threads exit, barriers waiting
  // on all threads are checked to see if the exiting threads are the only threads that have not
  // yet made it to a barrier for all threads in the CTA" (PTX ISA, "exit"): that releases a
  // barrier without a thread count. One with a count (`bar.sync 1, 64` in a CTA of 64) counts
  // arrivals by warp: a warp arrives once its lanes that have not exited did, and a warp whose
  // lanes all exited never does, so such a barrier never completes (so the emulator too).
  uint32_t counted = 0, uncounted = 0;
  for (uint32_t t = 0; t < threads_; ++t) {
    if (barriers_.waits_at(state_, t, id))
      (barriers_.count_of(t) != 0 ? counted : uncounted) = t + 1;
  }
  if (counted == 0)
    return true;
  const uint32_t t = counted - 1;
  current_pc_ = pc_[t];
  if (uncounted != 0) {
    fail_unsupported(prog_.insts[pc_[t]], t,
                     fmt::format("waits at barrier {} with a thread count while thread {} waits "
                                 "there without one ('{}', PTX line {}), and only exited threads "
                                 "are missing: whether the exits release it is not modeled",
                                 id, uncounted - 1, prog_.insts[pc_[uncounted - 1]].text,
                                 prog_.insts[pc_[uncounted - 1]].line));
    return false;
  }
  uint32_t gone = UINT32_MAX; // a warp whose every lane exited
  for (uint32_t w = 0; w < warps_ && gone == UINT32_MAX; ++w) {
    if (exited_lanes(w) == existing_lanes(w))
      gone = w;
  }
  if (gone == UINT32_MAX)
    return true; // every warp arrives (the count is the CTA's threads_, checked at arrival)
  report_stuck(fmt::format("barrier {} ('{}', PTX line {}) has a thread count, and every thread "
                           "of warp {} exited: an exited warp never arrives, and an exit releases "
                           "only a barrier without a thread count, so it never completes",
                           id, prog_.insts[pc_[t]].text, prog_.insts[pc_[t]].line, gone));
  return false;
}

void CtaRunner::report_stuck(const std::string& why) {
  // Nobody can run and no barrier can fire: describe who waits where.
  uint32_t a = UINT32_MAX, b = UINT32_MAX;
  for (uint32_t t = 0; t < threads_; ++t) {
    if (state_[t] == ThreadState::Exited)
      continue;
    if (a == UINT32_MAX) {
      a = t;
    } else if (b == UINT32_MAX && (pc_[t] != pc_[a] || state_[t] != state_[a])) {
      b = t;
    }
  }
  auto where = [&](uint32_t t) {
    const Inst& in = prog_.insts[pc_[t]];
    if (state_[t] == ThreadState::AtBarrier)
      return fmt::format("thread {} waits at '{}' (PTX line {}), {}", t, in.text, in.line,
                         barriers_.describe(barriers_.id_of(t), state_));
    if (state_[t] == ThreadState::AtMbarrier)
      return fmt::format("thread {} waits at '{}' (PTX line {}) for phase {} of {}", t, in.text,
                         in.line, mbar_wait_[t].second, mbarriers_.describe(mbar_wait_[t].first));
    return fmt::format("thread {} waits at warp collective '{}' (PTX line {})", t, in.text,
                       in.line);
  };
  Failure f;
  f.verdict = Verdict::Deadlock;
  f.kind = "deadlock";
  f.message = a == UINT32_MAX ? "no thread can make progress" : where(a);
  if (b != UINT32_MAX)
    f.message += "; " + where(b);
  if (!why.empty())
    f.message = why + ": " + f.message;
  if (a != UINT32_MAX)
    f.first = site(a, pc_[a]);
  if (b != UINT32_MAX)
    f.second = site(b, pc_[b]);
  failed_ = true;
  ctx_.report(cta_, std::move(f));
}

} // namespace volta::exec
