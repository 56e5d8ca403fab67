// CtaBarriers: the barrier bookkeeping both CTA machines share (cta_barriers.hpp).
#include "engine/exec/cta_barriers.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "support/invariant.hpp"

namespace volta::exec {

void CtaBarriers::reset(uint32_t threads) {
  threads_ = threads;
  warps_ = (threads + 31) / 32;
  id_.assign(threads, 0);
  count_.assign(threads, 0);
  std::fill(std::begin(expected_), std::end(expected_), 0);
  std::fill(std::begin(arrivals_), std::end(arrivals_), 0);
}

bool CtaBarriers::wait(uint32_t t, uint32_t id, uint32_t count) {
  VOLTA_ASSERT(id < kBarriers && t < threads_, "a barrier id below 16, a thread of the CTA");
  id_[t] = static_cast<uint8_t>(id);
  count_[t] = count;
  if (count == 0)
    return true;
  const bool agrees = expected_[id] == 0 || expected_[id] == count;
  expected_[id] = count;
  return agrees;
}

bool CtaBarriers::arrive(uint32_t id, uint32_t count) {
  VOLTA_ASSERT(id < kBarriers && count != 0, "bar.arrive names a barrier and a thread count");
  const bool agrees = expected_[id] == 0 || expected_[id] == count;
  expected_[id] = count;
  arrivals_[id] += 32; // the hardware counts arrivals per warp
  return agrees;
}

std::vector<uint32_t> CtaBarriers::waiting(std::span<const ThreadState> state) const {
  std::vector<uint32_t> n(kBarriers, 0);
  for (uint32_t t = 0; t < threads_; ++t) {
    if (state[t] == ThreadState::AtBarrier)
      ++n[id_[t]];
  }
  return n;
}

bool CtaBarriers::every_live_thread_waits(uint32_t id, std::span<const ThreadState> state) const {
  for (uint32_t t = 0; t < threads_; ++t) {
    if (state[t] != ThreadState::Exited && !waits_at(state, t, id))
      return false;
  }
  return true;
}

bool CtaBarriers::warp_waits(uint32_t w, uint32_t id, std::span<const ThreadState> state) const {
  uint32_t here = 0, live = 0;
  for (uint32_t t = w * 32; t < std::min(threads_, w * 32 + 32); ++t) {
    live += state[t] != ThreadState::Exited ? 1 : 0;
    here += waits_at(state, t, id) ? 1 : 0;
  }
  return here != 0 && here == live;
}

uint32_t CtaBarriers::arrived(uint32_t id, std::span<const ThreadState> state) const {
  uint32_t arrived = arrivals_[id];
  for (uint32_t w = 0; w < warps_; ++w)
    arrived += warp_waits(w, id, state) ? 32 : 0;
  return arrived;
}

bool CtaBarriers::complete(uint32_t id, std::span<const ThreadState> state) const {
  if (expected_[id] == 0)
    return every_live_thread_waits(id, state);
  return arrived(id, state) >= expected_[id];
}

std::string CtaBarriers::describe(uint32_t id, std::span<const ThreadState> state) const {
  // The waiting threads as ranges of consecutive indices.
  std::string who;
  uint32_t n = 0;
  for (uint32_t t = 0; t < threads_; ++t) {
    if (!waits_at(state, t, id) || (t > 0 && waits_at(state, t - 1, id)))
      continue;
    uint32_t end = t;
    while (end + 1 < threads_ && waits_at(state, end + 1, id))
      ++end;
    who += fmt::format("{}{}", who.empty() ? "" : ", ",
                       end == t ? fmt::format("{}", t) : fmt::format("{}-{}", t, end));
    n += end - t + 1;
  }
  std::string count = expected_[id] == 0 ? std::string("no thread count")
                                         : fmt::format("thread count {}, {} arrived", expected_[id],
                                                       arrived(id, state));
  return fmt::format("barrier {} ({}; thread{} {} wait{})", id, count, n == 1 ? "" : "s",
                     who.empty() ? "none" : who, n == 1 ? "s" : "");
}

std::optional<BarrierDivergence>
CtaBarriers::count_mismatch(uint32_t id, std::span<const ThreadState> state) const {
  auto expected = [&](uint32_t t) { return count_[t] == threads_ ? 0 : count_[t]; };
  uint32_t first = UINT32_MAX;
  for (uint32_t t = 0; t < threads_; ++t) {
    if (!waits_at(state, t, id))
      continue;
    if (first == UINT32_MAX) {
      first = t;
    } else if (expected(t) != expected(first)) {
      return BarrierDivergence{
          first, t,
          fmt::format("threads wait at barrier {} with different thread counts ({} and {})", id,
                      expected(first), expected(t))};
    }
  }
  return std::nullopt;
}

std::optional<BarrierDivergence>
CtaBarriers::phase_count_mismatch(uint32_t id, std::span<const ThreadState> state) const {
  if (expected_[id] == 0)
    return std::nullopt;
  for (uint32_t t = 0; t < threads_; ++t) {
    if (!waits_at(state, t, id))
      continue;
    const uint32_t count = count_[t] == 0 ? threads_ : count_[t];
    if (count != expected_[id]) {
      return BarrierDivergence{
          t, t,
          fmt::format("thread {} waits at barrier {} with {}, but the phase's arrivals give it "
                      "thread count {} (undefined behaviour)",
                      t, id,
                      count_[t] == 0 ? std::string("no thread count (the CTA's every thread)")
                                     : fmt::format("thread count {}", count_[t]),
                      expected_[id])};
    }
  }
  return std::nullopt;
}

std::optional<BarrierDivergence> CtaBarriers::form_divergence(uint32_t id, const Program& prog,
                                                              std::span<const ThreadState> state,
                                                              std::span<const uint32_t> pc) const {
  auto form = [&](uint32_t t) { return prog.insts[pc[t]].sub; };
  // An .aligned instruction says that every thread of the CTA executes it: one waiting thread
  // at an .aligned barrier makes every other instruction (aligned or not) a divergence.
  // With a thread count, the threads that take part are a subset that may reach the barrier at
  // different instructions (producers at bar.arrive, consumers at bar.sync): then each warp
  // executes one instruction (below).
  uint32_t aligned = UINT32_MAX;
  for (uint32_t t = 0; t < threads_ && aligned == UINT32_MAX; ++t) {
    if (waits_at(state, t, id) && (form(t) & kBarrierAligned) != 0 &&
        (count_[t] == 0 || count_[t] >= threads_) && arrivals_[id] == 0)
      aligned = t;
  }
  if (aligned != UINT32_MAX) {
    const Inst& a = prog.insts[pc[aligned]];
    for (uint32_t t = 0; t < threads_; ++t) {
      if (waits_at(state, t, id) && pc[t] != pc[aligned]) {
        return BarrierDivergence{
            aligned, t,
            fmt::format("threads reach barrier {} at different instructions (PTX lines {} and "
                        "{}), and '{}' (PTX line {}) is .aligned: every thread must execute that "
                        "one instruction",
                        id, a.line, prog.insts[pc[t]].line, a.text, a.line)};
      }
    }
  }
  // In a warp that takes part, every lane reaches an .aligned barrier (and, below sm_70, any
  // barrier) at one instruction; none may have exited instead.
  for (uint32_t w = 0; w < warps_; ++w) {
    const uint32_t base = w * 32;
    const uint32_t end = std::min(threads_, base + 32);
    uint32_t lane_pc = UINT32_MAX, lane = 0;
    for (uint32_t t = base; t < end; ++t) {
      if (!waits_at(state, t, id) || (form(t) & (kBarrierAligned | kBarrierWarpAligned)) == 0)
        continue;
      if (lane_pc == UINT32_MAX) {
        lane_pc = pc[t];
        lane = t;
      } else if (pc[t] != lane_pc) {
        return BarrierDivergence{
            lane, t,
            fmt::format("lanes of warp {} reach barrier {} at different instructions (PTX lines "
                        "{} and {}), which a target below sm_70 does not allow",
                        w, id, prog.insts[lane_pc].line, prog.insts[pc[t]].line)};
      }
    }
    if (lane_pc == UINT32_MAX)
      continue;
    for (uint32_t t = base; t < end; ++t) {
      if (state[t] == ThreadState::Exited) {
        const bool is_aligned = (prog.insts[lane_pc].sub & kBarrierAligned) != 0;
        return BarrierDivergence{
            lane, t,
            fmt::format("barrier {} (PTX line {}) is reached by only part of warp {}: thread {} "
                        "exited without reaching it ({})",
                        id, prog.insts[lane_pc].line, w, t,
                        is_aligned ? "the instruction is .aligned" : "a target below sm_70")};
      }
    }
  }
  return std::nullopt;
}

void CtaBarriers::release(uint32_t id, std::span<ThreadState> state, std::span<uint32_t> pc) {
  for (uint32_t t = 0; t < threads_; ++t) {
    if (waits_at(state, t, id)) {
      state[t] = ThreadState::Running;
      ++pc[t];
    }
  }
  expected_[id] = 0;
  arrivals_[id] = 0;
}

} // namespace volta::exec
