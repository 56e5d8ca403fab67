// CTA barriers (PTX ISA, "barrier", "bar") in the symbolic CTA: arrival, firing, and the ways a
// kernel can use one wrongly. A barrier is its id (0..15): threads wait until every thread that
// has not exited arrived (or `count` arrived, for a barrier with a thread count), then all go on
// at once and the CTA enters a new epoch of the race check, which orders everything before with
// everything after. The bookkeeping (who waits where, completion, the instruction forms
// `.aligned` and below sm_70 allow) is CtaBarriers (cta_barriers.hpp), shared with the
// emulator; this file holds what the symbolic CTA refuses (bar.arrive, barriers over part of the
// CTA) and how it reports a divergence or a deadlock. An exit releases a barrier without a
// thread count that only the exiting threads held up; a barrier with a count waits for `count`
// arrivals, which exited threads never make.
#include <algorithm>
#include <bit>
#include <cassert>
#include <fmt/format.h>

#include "engine/exec/cta_runner.hpp"
#include "support/invariant.hpp"

namespace volta::exec {

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
  if (in.op == XOp::BarArrive) {
    fail_unsupported(in, first, "bar.arrive (producer/consumer barriers) is not modeled yet");
    return;
  }
  if (count > threads_) {
    // bar.sync waits for `count` threads, and a CTA has no more than threads_ of them: the
    // barrier never completes. (Within the last, partial warp the hardware may count a warp as
    // 32 threads: not modeled.)
    const uint32_t warp_threads = warps_ * 32;
    if (count > warp_threads) {
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
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    // Copies of cp.async are not ordered by barriers, but completed ones are visible. Threads
    // that disagree on the count are reported when the barrier would fire (count_mismatch).
    VOLTA_ASSERT(state_[t] == ThreadState::Running, "only a running thread arrives at a barrier");
    VOLTA_ASSERT(*id < CtaBarriers::kBarriers, "barrier ids are 0..15");
    state_[t] = ThreadState::AtBarrier;
    (void)barriers_.wait(t, static_cast<uint32_t>(*id), count);
    pc_[t] = pc;
  }
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
    const bool cta_wide = expected == 0 || expected >= threads_;
    if (!cta_wide) {
      current_pc_ = pc_[first];
      fail_unsupported(
          prog_.insts[pc_[first]], first,
          fmt::format("named barrier {} over a subset of {} threads (partial CTA barriers are "
                      "not modeled yet)",
                      id, expected));
      return false;
    }
    if (!barriers_.every_live_thread_waits(id, state_))
      continue; // somebody has not arrived yet
    if (auto d = barriers_.form_divergence(id, prog_, state_, pc_)) {
      Failure f;
      f.verdict = Verdict::BarrierDivergence;
      f.kind = "barrier divergence";
      f.message = std::move(d->message);
      f.first = site(d->a, pc_[d->a]);
      f.second = site(d->b, pc_[d->b]);
      failed_ = true;
      ctx_.report(cta_, std::move(f));
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
    const char* what =
        state_[t] == ThreadState::AtBarrier ? "waits at barrier" : "waits at warp collective";
    return fmt::format("thread {} {} '{}' (PTX line {})", t, what, in.text, in.line);
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
