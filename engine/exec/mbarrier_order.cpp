// MbarrierOrder: the order mbarrier phases give the race check (mbarrier_order.hpp).
#include "engine/exec/mbarrier_order.hpp"

#include <algorithm>

#include "support/invariant.hpp"

namespace volta::exec {

void MbarrierOrder::reset(uint32_t threads, uint32_t warps) {
  threads_ = threads;
  warps_ = warps;
  groups_ = 0;
  bars_.clear();
}

void MbarrierOrder::init(uint64_t addr) {
  Bar& b = bars_[addr];
  b = Bar{};
  b.release.assign(warps_, 0);
  b.arrived.assign(threads_, 0);
  b.seen.assign(threads_, 0);
}

MbarrierOrder::Bar& MbarrierOrder::bar(uint64_t addr) {
  auto it = bars_.find(addr);
  VOLTA_ASSERT(it != bars_.end(), "an mbarrier operation follows its init");
  return it->second;
}

bool MbarrierOrder::after_completion(const NamedBarrierOrder& clocks, const Bar& b, uint32_t t,
                                     uint32_t w, uint64_t j, uint32_t stamp) const {
  if (b.seen[t] > j)
    return true; // t saw phase j (or a later one) complete
  auto it = b.done.find(j);
  if (it == b.done.end())
    return false;
  // A CTA-wide barrier came after every arrival of the phase; an asynchronous complete_tx
  // counted in it may come later, unless a thread saw the phase complete before the barrier.
  const Completed& c = it->second;
  if (c.stamp != stamp && (!c.async || c.observed_stamp < stamp))
    return true;
  for (const auto& [x, after] : it->second.waiters) {
    // Its warp passed the wait with every lane, or it acquired a release made after a wait.
    if (x == w || clocks.ordered_after(t, x, after))
      return true;
  }
  return false;
}

bool MbarrierOrder::ordered_after(const NamedBarrierOrder& clocks, uint64_t addr, uint32_t t,
                                  uint32_t w, uint64_t phase, uint32_t stamp) const {
  const auto it = bars_.find(addr);
  return it != bars_.end() && after_completion(clocks, it->second, t, w, phase, stamp);
}

bool MbarrierOrder::arrive(const NamedBarrierOrder& clocks, uint64_t addr, uint32_t t, uint32_t w,
                           uint32_t own, uint64_t phase, bool counted, uint32_t stamp) {
  VOLTA_ASSERT(t < threads_ && w < warps_ && t / 32 == w, "a thread of the CTA and its warp");
  Bar& b = bar(addr);
  const bool twice = counted && b.arrived[t] == phase + 1;
  if (counted)
    b.arrived[t] = phase + 1;
  const bool ordered = phase == 0 || after_completion(clocks, b, t, w, phase - 1, stamp);
  clocks.join_release(b.release, t, w, own);
  // The parity waits that this phase must complete after: this arrival is after them when it
  // is the waiter's own, in a later epoch, or it acquired a release made after the wait.
  if (auto it = b.lapping.find(phase); it != b.lapping.end()) {
    std::vector<uint32_t> groups; // satisfied through one of their passes: all satisfied
    std::erase_if(it->second, [&](const Lapping& l) {
      const bool after =
          l.thread == t || l.stamp != stamp || clocks.ordered_after(t, l.column, l.after);
      if (after && l.group != 0)
        groups.push_back(l.group);
      return after;
    });
    if (!groups.empty()) {
      std::ranges::sort(groups);
      std::erase_if(it->second, [&](const Lapping& l) {
        return l.group != 0 && std::ranges::binary_search(groups, l.group);
      });
    }
  }
  return !twice && ordered;
}

bool MbarrierOrder::complete(uint64_t addr, uint64_t phase, uint32_t stamp) {
  Bar& b = bar(addr);
  Completed& c = b.done[phase];
  c.release = b.release;
  c.stamp = stamp;
  c.async = b.async_phase == phase + 1;
  std::fill(b.release.begin(), b.release.end(), 0);
  bool fine = true;
  if (auto it = b.lapping.find(phase); it != b.lapping.end()) {
    fine = it->second.empty();
    b.lapping.erase(it);
  }
  return fine;
}

void MbarrierOrder::observed(uint64_t addr, uint32_t t, uint64_t phase, uint32_t stamp) {
  Bar& b = bar(addr);
  b.seen[t] = std::max(b.seen[t], phase + 1);
  if (auto it = b.done.find(phase); it != b.done.end())
    it->second.observed_stamp = std::min(it->second.observed_stamp, stamp);
}

bool MbarrierOrder::async_tx(const NamedBarrierOrder& clocks, uint64_t addr, uint32_t t, uint32_t w,
                             uint64_t phase, uint32_t stamp) {
  Bar& b = bar(addr);
  b.async_phase = phase + 1;
  return phase == 0 || after_completion(clocks, b, t, w, phase - 1, stamp);
}

void MbarrierOrder::acquire(NamedBarrierOrder& clocks, uint64_t addr, uint32_t w, uint64_t phase,
                            uint32_t after) {
  Bar& b = bar(addr);
  auto it = b.done.find(phase);
  VOLTA_ASSERT(it != b.done.end(), "a wait acquires a completed phase");
  clocks.acquire(w, it->second.release);
  it->second.waiters.emplace_back(w, after);
}

std::pair<uint32_t, uint32_t> MbarrierOrder::acquire_lane(NamedBarrierOrder& clocks, uint64_t addr,
                                                          uint32_t t, int64_t phase) {
  Bar& b = bar(addr);
  if (phase < 0) // nothing completed: the event only
    return clocks.acquire_lane(t, {});
  auto it = b.done.find(static_cast<uint64_t>(phase));
  VOLTA_ASSERT(it != b.done.end(), "a wait acquires a completed phase");
  const auto event = clocks.acquire_lane(t, it->second.release);
  it->second.waiters.push_back(event);
  return event;
}

std::pair<uint32_t, uint32_t> MbarrierOrder::lane_passed(NamedBarrierOrder& clocks, uint64_t addr,
                                                         uint32_t t, int64_t phase) {
  const auto event = clocks.acquire_lane(t, {});
  if (phase >= 0) {
    auto it = bar(addr).done.find(static_cast<uint64_t>(phase));
    VOLTA_ASSERT(it != bar(addr).done.end(), "a wait passes a completed phase");
    it->second.waiters.push_back(event);
  }
  return event;
}

bool MbarrierOrder::parity_wait(const NamedBarrierOrder& clocks, uint64_t addr, uint32_t t,
                                uint32_t w, int64_t phase, uint32_t stamp) {
  const Bar& b = bar(addr);
  // Never early: phase - 1 completed before the wait in every schedule.
  return phase <= 0 || after_completion(clocks, b, t, w, static_cast<uint64_t>(phase - 1), stamp);
}

void MbarrierOrder::parity_passed(uint64_t addr, uint32_t t, uint32_t column, int64_t phase,
                                  uint32_t after, uint32_t stamp, uint32_t group) {
  Bar& b = bar(addr);
  b.lapping[static_cast<uint64_t>(phase + 1)].push_back(Lapping{t, column, after, stamp, group});
}

} // namespace volta::exec
