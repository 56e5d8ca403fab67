// NamedBarrierOrder: the order named barriers give the race check (named_barrier_order.hpp).
#include "engine/exec/named_barrier_order.hpp"

#include <algorithm>

#include "support/invariant.hpp"

namespace volta::exec {

void NamedBarrierOrder::reset(uint32_t warps) {
  warps_ = warps;
  completed_any_ = false;
  clock_.assign(size_t{warps} * warps, 0);
  for (Barrier& b : barriers_) {
    b = Barrier{};
    b.release.assign(warps, 0);
  }
}

bool NamedBarrierOrder::after_completion(uint32_t id, uint32_t w, uint32_t stamp) const {
  const Barrier& b = barriers_[id];
  if (!b.completed || b.stamp != stamp)
    return true; // no phase before, or a CTA-wide barrier ordered it with everything after
  const uint32_t* mine = &clock_[size_t{w} * warps_];
  for (const auto& [x, phase] : b.waiters) {
    // w waited at it itself, or acquired a release x made after its completion.
    if (x == w || mine[x] > phase)
      return true;
  }
  return false;
}

bool NamedBarrierOrder::arrive(uint32_t id, uint32_t w, uint32_t phase, uint32_t stamp) {
  VOLTA_ASSERT(id < kBarriers && w < warps_, "a barrier id below 16, a warp of the CTA");
  Barrier& b = barriers_[id];
  const bool twice = std::find(b.arrived.begin(), b.arrived.end(), w) != b.arrived.end();
  const bool ordered = after_completion(id, w, stamp);
  b.arrived.push_back(w);
  const uint32_t* mine = clock_of(w);
  for (uint32_t v = 0; v < warps_; ++v)
    b.release[v] = std::max(b.release[v], mine[v]);
  b.release[w] = std::max(b.release[w], phase + 1);
  return !twice && ordered;
}

void NamedBarrierOrder::complete(uint32_t id,
                                 std::span<const std::pair<uint32_t, uint32_t>> waiters,
                                 uint32_t stamp) {
  VOLTA_ASSERT(id < kBarriers, "a barrier id below 16");
  Barrier& b = barriers_[id];
  for (const auto& [x, phase] : waiters) {
    VOLTA_ASSERT(x < warps_, "a waiter is a warp of the CTA");
    uint32_t* c = clock_of(x);
    for (uint32_t v = 0; v < warps_; ++v)
      c[v] = std::max(c[v], b.release[v]);
  }
  completed_any_ = completed_any_ || !waiters.empty();
  b.completed = true;
  b.stamp = stamp;
  b.waiters.assign(waiters.begin(), waiters.end());
  std::fill(b.release.begin(), b.release.end(), 0);
  b.arrived.clear();
}

void NamedBarrierOrder::join_release(std::span<uint32_t> release, uint32_t w, uint32_t own) const {
  VOLTA_ASSERT(w < warps_ && release.size() == warps_, "a warp of the CTA, an entry per warp");
  const uint32_t* mine = &clock_[size_t{w} * warps_];
  for (uint32_t v = 0; v < warps_; ++v)
    release[v] = std::max(release[v], mine[v]);
  release[w] = std::max(release[w], own);
}

void NamedBarrierOrder::acquire(uint32_t w, std::span<const uint32_t> release) {
  VOLTA_ASSERT(w < warps_ && release.size() == warps_, "a warp of the CTA, an entry per warp");
  uint32_t* c = clock_of(w);
  for (uint32_t v = 0; v < warps_; ++v)
    c[v] = std::max(c[v], release[v]);
  completed_any_ = true;
}

} // namespace volta::exec
