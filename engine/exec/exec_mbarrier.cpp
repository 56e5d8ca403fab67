// mbarrier objects (PTX ISA 9.7.13.15) in the symbolic CTA. The bookkeeping is CtaMbarriers
// (cta_mbarriers.hpp), shared with the emulator, and this file runs it exactly as the emulator's
// Cta::exec_mbarrier does: the lanes of a warp in lane order, a wait that blocks until its phase
// completes (the exact-wait form lowering requires, refuse_inexact_waits), the waiters released
// by the operation that completes their phase. What it adds is the race check's order
// (mbarrier_order.hpp): arrivals release, waits that pass acquire, and the checks that the one
// schedule run groups arrivals into phases, and resolves parities, as every schedule does.
//
// The object's 8 bytes take part in the race check: init and inval write them, the other
// operations are atomics on them (atomics do not race with atomics), so an operation unordered
// with the init or the inval of its object is a DATA_RACE, and an ordinary access of the bytes
// while they hold an mbarrier is refused (exec_memory.cpp), as in the emulator. No async copy
// exists yet: a phase that waits for tx bytes completes only by complete_tx.
#include <bit>
#include <fmt/format.h>

#include "engine/exec/access_place.hpp"
#include "engine/exec/cta_runner.hpp"
#include "support/invariant.hpp"

namespace volta::exec {

std::optional<uint64_t> CtaRunner::mbarrier_address(const Inst& in, uint32_t t, AccessKind kind) {
  auto a = address_of(in.mem[0], t);
  if (!a)
    return std::nullopt;
  uint64_t addr = *a;
  Space space = in.space;
  if (space == Space::Generic)
    std::tie(space, addr) = resolve_generic(addr);
  if (space != Space::Shared) {
    fail_unsupported(in, t,
                     fmt::format("is an mbarrier operation on {:#x}, which is not shared memory "
                                 "(undefined)",
                                 addr));
    return std::nullopt;
  }
  in_mbarrier_op_ = true; // its own bytes: bounds, alignment and the race check only
  shadow_values_ = StoredElements{};
  const ByteCell* cells =
      access(Space::Shared, addr, CtaMbarriers::kBytes, CtaMbarriers::kBytes, t, kind);
  in_mbarrier_op_ = false;
  if (cells == nullptr || failed_)
    return std::nullopt;
  return addr;
}

std::pair<uint32_t, uint32_t> CtaRunner::acquire_mbarrier(uint64_t addr, uint32_t t,
                                                          uint32_t passed, int64_t phase) {
  // A wait that every live lane of the warp passes at once orders the warp (mbarrier_order.hpp):
  // it starts a new phase of the warp that orders none of its lanes (each lane waited for
  // itself), from which a release shows the wait passed. Else thread t acquires alone: its
  // later accesses and releases are ordered after the phase, its warp's other lanes are not.
  const uint32_t w = t / 32;
  if (passed != (existing_lanes(w) & ~exited_lanes(w)))
    return mbarrier_order_.acquire_lane(named_, addr, t, phase);
  ++warp_phase_[w];
  warp_syncs_[w].masks.push_back(0);
  if (phase >= 0)
    mbarrier_order_.acquire(named_, addr, w, static_cast<uint64_t>(phase), warp_phase_[w]);
  return {w, warp_phase_[w]};
}

bool CtaRunner::wake_mbarrier_waiters(uint64_t addr) {
  // A waiter sees the completion at once (a schedule in which it was spinning): its predicate
  // becomes true and it moves past the wait, as in the emulator.
  const CtaMbarriers::Mbarrier* b = mbarriers_.find(addr);
  VOLTA_ASSERT(b != nullptr && b->phase > 0, "a completed phase belongs to an mbarrier");
  const uint64_t phase = b->phase - 1;
  for (uint32_t x = 0; x < warps_; ++x) {
    uint32_t woken = 0, parity = 0;
    for (uint32_t l = 0; l < 32 && x * 32 + l < threads_; ++l) {
      const uint32_t t = x * 32 + l;
      if (state_[t] != ThreadState::AtMbarrier || mbar_wait_[t].first != addr ||
          mbar_wait_[t].second >= b->phase)
        continue;
      // Each waiter was woken by the completion of the phase it waits for.
      VOLTA_ASSERT(mbar_wait_[t].second == phase, "a waiter waits for the current phase");
      const Inst& wait = prog_.insts[pc_[t]];
      set_dst(wait.dsts[0], t, Value{1, 0});
      if ((wait.sub & kMbarParity) != 0)
        parity |= 1u << l;
      ++pc_[t];
      state_[t] = ThreadState::Running;
      mbarrier_order_.observed(addr, t, phase, stamp_);
      woken |= 1u << l;
    }
    if (woken == 0)
      continue;
    // All woken lanes waited for one phase of one mbarrier.
    std::array<std::pair<uint64_t, int64_t>, 32> waits{};
    waits.fill({addr, static_cast<int64_t>(phase)});
    pass_mbarrier_waits(x, woken, parity, true, waits);
  }
  return !failed_;
}

void CtaRunner::pass_mbarrier_waits(uint32_t w, uint32_t passed, uint32_t parity, bool alike,
                                    const std::array<std::pair<uint64_t, int64_t>, 32>& waits) {
  const uint32_t base = w * 32;
  // The warp acquires once when its live lanes all passed one wait alike, else each lane that
  // passed acquires alone (of its own wait).
  const bool whole = alike && passed == (existing_lanes(w) & ~exited_lanes(w));
  const auto [addr, phase] = waits[std::countr_zero(passed)];
  std::pair<uint32_t, uint32_t> event{};
  if (whole)
    event = acquire_mbarrier(addr, base, passed, phase);
  // Under the converged-waits assumption the lanes of a whole-warp wait passed it at one
  // instant. Each lane gets an event of its own (MbarrierOrder::lane_passed), which its later
  // releases carry: FA3's producer lane that issues after its warp's wait. And the lanes' parity
  // waits are one group: the next phase completing after one lane's pass is after all of them.
  const bool converged = whole && ctx_.options.converged_waits;
  const uint32_t group = converged && parity != 0 ? mbarrier_order_.new_group() : 0;
  for (uint32_t m = passed; m != 0; m &= m - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
    if (!whole)
      event = acquire_mbarrier(waits[l].first, base + l, 1u << l, waits[l].second);
    const bool by_parity = ((parity >> l) & 1u) != 0;
    if (by_parity)
      mbarrier_order_.parity_passed(addr, base + l, event.first, phase, event.second, stamp_,
                                    group);
    if (converged) {
      const auto own = mbarrier_order_.lane_passed(named_, addr, base + l, phase);
      if (by_parity)
        mbarrier_order_.parity_passed(addr, base + l, own.first, phase, own.second, stamp_, group);
    }
  }
}

void CtaRunner::exec_mbarrier(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  // What an arrival of these lanes releases of warp w (mbarrier_order.hpp): every phase so far
  // when the whole warp arrives together at one mbarrier, else the phases before its last
  // full-warp sync. (Lanes of one instruction at different mbarriers release each its own
  // accesses to its own barrier: no whole-warp release then.)
  bool whole_warp = mask == existing_lanes(w);
  if (whole_warp && (in.op == XOp::MbarArrive || in.op == XOp::MbarTx)) {
    const auto first = address_of(in.mem[0], base + std::countr_zero(mask));
    if (!first)
      return;
    for (uint32_t m = mask & (mask - 1); m != 0 && whole_warp; m &= m - 1) {
      const auto other = address_of(in.mem[0], base + std::countr_zero(m));
      if (!other)
        return;
      whole_warp = *other == *first;
    }
  }
  const uint32_t own = whole_warp ? warp_phase_[w] + 1 : warp_syncs_[w].full_phase;
  bool released = false;
  // The lanes whose wait passes now, and the wait each passes (all alike: the warp acquires).
  uint32_t passed = 0, parity_passed = 0;
  uint64_t wait_addr = 0;
  int64_t wait_phase = 0;
  bool alike = true;
  std::array<std::pair<uint64_t, int64_t>, 32> waits{};
  auto undefined = [&](uint32_t t, const std::string& problem) {
    fail_unsupported(in, t, fmt::format("is undefined behaviour: {}", problem));
  };
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
    const uint32_t t = base + l;
    const bool writes = in.op == XOp::MbarInit || in.op == XOp::MbarInval;
    const auto a = mbarrier_address(in, t, writes ? AccessKind::Write : AccessKind::Atomic);
    if (!a)
      return;
    auto operand = [&](size_t i, uint64_t absent) -> std::optional<uint64_t> {
      if (in.srcs.size() <= i)
        return absent;
      auto v = concrete_operand(in.srcs[i], t, "an mbarrier count");
      return v ? std::optional<uint64_t>(*v & 0xffffffffu) : std::nullopt;
    };
    CtaMbarriers::Outcome o;
    const CtaMbarriers::Mbarrier* before = mbarriers_.find(*a);
    const uint64_t joined = before != nullptr ? before->phase : 0; // the phase it acts on
    bool releases = false, counted = false;
    switch (in.op) {
    case XOp::MbarInit: {
      const auto count = operand(0, 0);
      if (!count)
        return;
      o = mbarriers_.init(*a, *count);
      if (o.ok())
        mbarrier_order_.init(*a);
      break;
    }
    case XOp::MbarInval:
      o = mbarriers_.inval(*a);
      if (o.ok())
        mbarrier_order_.inval(*a);
      break;
    case XOp::MbarArrive: {
      const bool tx = (in.sub & kMbarExpectTx) != 0;
      const auto v = operand(0, 1);
      if (!v)
        return;
      o = mbarriers_.arrive(*a, tx ? 1 : *v, tx ? *v : 0, (in.sub & kMbarDrop) != 0);
      if (o.ok())
        set_dst(in.dsts[0], t, Value{o.token, 0});
      releases = counted = true;
      break;
    }
    case XOp::MbarTx: {
      const auto v = operand(0, 0);
      if (!v)
        return;
      o = (in.sub & kMbarComplete) != 0 ? mbarriers_.complete_tx(*a, *v)
                                        : mbarriers_.expect_tx(*a, *v);
      releases = true;
      break;
    }
    case XOp::MbarWait: {
      const bool parity = (in.sub & kMbarParity) != 0;
      const auto v = concrete_operand(in.srcs[0], t,
                                      parity ? "an mbarrier phase parity" : "an mbarrier state");
      if (!v)
        return;
      std::string problem;
      const std::optional<bool> done = parity ? mbarriers_.parity_done(*a, *v, &problem)
                                              : mbarriers_.token_done(*a, *v, &problem);
      if (!done) {
        undefined(t, problem);
        return;
      }
      const uint64_t current = mbarriers_.find(*a)->phase;
      // The phase it waits for: a token's, or the one its parity names (-1: the phase before
      // phase 0, which never completed).
      const int64_t phase =
          !parity ? static_cast<int64_t>(*v) : static_cast<int64_t>(current) - (*done ? 1 : 0);
      if (parity && !mbarrier_order_.parity_wait(named_, *a, t, w, phase, stamp_)) {
        note_schedule_dependence(
            fmt::format("waits for the parity of phase {} of the mbarrier at {:#x} without being "
                        "ordered after the completion of phase {}: in another schedule it could "
                        "see that phase pending and take the parity for the phase before it (not "
                        "modeled)",
                        phase, *a, phase - 1),
            t);
      }
      if (!*done) {
        // Blocked until the phase completes (the exact-wait form): the current one.
        state_[t] = ThreadState::AtMbarrier;
        mbar_wait_[t] = {*a, current};
        continue;
      }
      set_dst(in.dsts[0], t, Value{1, 0});
      pc_[t] = pc + 1;
      if (phase >= 0)
        mbarrier_order_.observed(*a, t, static_cast<uint64_t>(phase), stamp_);
      if (passed == 0) {
        wait_addr = *a;
        wait_phase = phase;
      }
      alike = alike && wait_addr == *a && wait_phase == phase;
      passed |= 1u << l;
      if (parity)
        parity_passed |= 1u << l;
      waits[l] = {*a, phase};
      continue;
    }
    default:
      fail_unsupported(in, t, "is an mbarrier operation the engine does not execute");
      return;
    }
    if (!o.ok()) {
      undefined(t, o.problem);
      return;
    }
    pc_[t] = pc + 1;
    if (releases) {
      released = true;
      if (!mbarrier_order_.arrive(named_, *a, t, w, own, joined, counted, stamp_)) {
        note_schedule_dependence(
            fmt::format("joins phase {} of the mbarrier at {:#x} without being ordered after the "
                        "completion of the phase before it, or arrives twice in one phase: which "
                        "arrivals make each phase depends on the schedule (not modeled)",
                        joined, *a),
            t);
      }
    }
    if (o.completed) {
      if (!mbarrier_order_.complete(*a, joined, stamp_)) {
        note_schedule_dependence(
            fmt::format("completes phase {} of the mbarrier at {:#x} without being ordered after "
                        "a parity wait for phase {}: in another schedule that wait could see "
                        "phase {}, of the same parity, and wait for it (not modeled){}",
                        joined, *a, static_cast<int64_t>(joined) - 1, joined + 1,
                        ctx_.options.converged_waits
                            ? ""
                            : "; where a whole warp passed that wait together, "
                              "--assume-converged-waits takes its lanes to pass it as one"),
            t);
      }
      if (!wake_mbarrier_waiters(*a))
        return;
    }
  }
  if (released && whole_warp) {
    // A new phase of the warp, which orders none of its lanes: what the lanes do from here on
    // is not released by this arrival (as after bar.arrive).
    ++warp_phase_[w];
    warp_syncs_[w].masks.push_back(0);
  }
  if (passed != 0)
    pass_mbarrier_waits(w, passed, parity_passed, alike, waits);
}

} // namespace volta::exec
