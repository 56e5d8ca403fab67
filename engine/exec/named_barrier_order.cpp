// NamedBarrierOrder: the order named barriers give the race check (named_barrier_order.hpp).
#include "engine/exec/named_barrier_order.hpp"

#include <algorithm>
#include <bit>

#include "support/invariant.hpp"

namespace volta::exec {

void NamedBarrierOrder::reset(uint32_t warps, uint32_t threads) {
  warps_ = warps;
  threads_ = threads == UINT32_MAX ? warps * 32 : threads;
  completed_any_ = false;
  rows_.assign(warps, std::vector<uint32_t>(warps, 0));
  lane_rows_.assign(threads_, {});
  apart_.assign(warps, 0);
  slotted_.assign(warps, 0);
  slot_of_.assign(threads_, 0);
  slot_count_.clear();
  for (Barrier& b : barriers_) {
    b = Barrier{};
    b.release.assign(warps, 0);
  }
}

void NamedBarrierOrder::join(std::vector<uint32_t>& into, std::span<const uint32_t> from) {
  if (into.size() < from.size())
    into.resize(from.size(), 0);
  for (size_t v = 0; v < from.size(); ++v)
    into[v] = std::max(into[v], from[v]);
}

bool NamedBarrierOrder::after_completion(uint32_t id, uint32_t w, uint32_t stamp) const {
  const Barrier& b = barriers_[id];
  if (!b.completed || b.stamp != stamp)
    return true; // no phase before, or a CTA-wide barrier ordered it with everything after
  const uint32_t* mine = rows_[w].data();
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
  const bool ordered = after_completion(id, w, stamp);
  // The warp's row only: what a lane acquired alone is not released (orders less, never more).
  // A second arrival of the warp in this phase releases its accesses since the first as well.
  join(b.release, rows_[w]);
  b.release[w] = std::max(b.release[w], phase + 1);
  return ordered;
}

void NamedBarrierOrder::complete(uint32_t id,
                                 std::span<const std::pair<uint32_t, uint32_t>> waiters,
                                 uint32_t stamp) {
  VOLTA_ASSERT(id < kBarriers, "a barrier id below 16");
  Barrier& b = barriers_[id];
  for (const auto& [x, phase] : waiters) {
    VOLTA_ASSERT(x < warps_, "a waiter is a warp of the CTA");
    acquire(x, b.release);
  }
  completed_any_ = completed_any_ || !waiters.empty();
  b.completed = true;
  b.stamp = stamp;
  b.waiters.assign(waiters.begin(), waiters.end());
  std::fill(b.release.begin(), b.release.end(), 0);
}

void NamedBarrierOrder::join_release(std::vector<uint32_t>& release, uint32_t t, uint32_t w,
                                     uint32_t own) const {
  VOLTA_ASSERT(w < warps_ && t < threads_ && t / 32 == w, "a thread of the CTA and its warp");
  join(release, row_of_thread(t));
  if (release.size() < warps_)
    release.resize(warps_, 0);
  release[w] = std::max(release[w], own);
  // The thread's lone acquires so far are released with it (it is one thread: its program
  // order orders them before this release).
  if (const uint32_t col = slot_of_[t]; col != 0) {
    if (release.size() <= col)
      release.resize(col + 1, 0);
    release[col] = std::max(release[col], slot_count_[col - warps_] + 1);
  }
}

void NamedBarrierOrder::acquire(uint32_t w, std::span<const uint32_t> release) {
  VOLTA_ASSERT(w < warps_, "a warp of the CTA");
  join(rows_[w], release);
  // A lane's own row stays at least its warp's.
  for (uint32_t m = apart_[w]; m != 0; m &= m - 1)
    join(lane_rows_[w * 32 + std::countr_zero(m)], release);
  completed_any_ = true;
}

std::pair<uint32_t, uint32_t> NamedBarrierOrder::acquire_lane(uint32_t t,
                                                              std::span<const uint32_t> release) {
  VOLTA_ASSERT(t < threads_, "a thread of the CTA");
  const uint32_t w = t / 32;
  if (!release.empty()) {
    std::vector<uint32_t>& row = lane_rows_[t];
    if (row.empty())
      row = rows_[w];
    join(row, release);
    apart_[w] |= 1u << (t % 32);
    completed_any_ = true;
  }
  uint32_t& col = slot_of_[t];
  if (col == 0) {
    col = warps_ + static_cast<uint32_t>(slot_count_.size());
    slot_count_.push_back(0);
    slotted_[w] |= 1u << (t % 32);
  }
  const uint32_t after = ++slot_count_[col - warps_];
  return {col, after};
}

void NamedBarrierOrder::warp_synced(uint32_t w, uint32_t members) {
  VOLTA_ASSERT(w < warps_, "a warp of the CTA");
  if (((apart_[w] | slotted_[w]) & members) == 0) [[likely]]
    return;
  // Every member's past (what it acquired alone, its lone acquires) is ordered before every
  // member's future: the warp's row takes them, and the members' rows are the warp's again.
  std::vector<uint32_t>& row = rows_[w];
  for (uint32_t m = apart_[w] & members; m != 0; m &= m - 1) {
    const uint32_t t = w * 32 + std::countr_zero(m);
    join(row, lane_rows_[t]);
    lane_rows_[t].clear();
  }
  for (uint32_t m = slotted_[w] & members; m != 0; m &= m - 1) {
    const uint32_t col = slot_of_[w * 32 + std::countr_zero(m)];
    if (row.size() <= col)
      row.resize(col + 1, 0);
    row[col] = std::max(row[col], slot_count_[col - warps_] + 1);
  }
  // A lane outside `members` (exited) keeps its row, which may now lack what the warp's row
  // gained: it orders less, and an exited lane accesses nothing more.
  apart_[w] &= ~members;
}

bool NamedBarrierOrder::ordered_after(uint32_t t, uint32_t column, uint32_t after) const {
  VOLTA_ASSERT(t < threads_, "a thread of the CTA");
  if (!completed_any_)
    return false;
  const std::vector<uint32_t>& row = row_of_thread(t);
  return column < row.size() && row[column] > after;
}

} // namespace volta::exec
