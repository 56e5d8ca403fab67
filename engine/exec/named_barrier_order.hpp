// The happens-before order that named barriers give the race check (race_shadow.hpp), and the
// check that one schedule is enough for them.
//
// Memory order (PTX ISA, "barrier", memory consistency model): bar.arrive and the arrival of
// bar.sync release, the completion of a phase acquires for the threads that wait at it. The
// accesses of a warp before it arrives at a phase are ordered before the accesses of every warp
// that waited at that phase after it completes; nothing orders two warps that only arrive (two
// producers), nor the accesses of an arriving warp after its arrival with those of the waiters
// (a producer that writes again after bar.arrive). The order is transitive: a waiter also
// acquires what the arriving warps had acquired. Kept as a vector clock per warp over the warps'
// phases (CtaRunner::warp_phase_): clock[w][v] = p says that warp v's accesses of phases below p
// (in the current CTA-wide epoch) are ordered before warp w's accesses from now on. The engine
// starts a new phase of a warp at each bar.arrive (without ordering its lanes) and after each
// phase it waited at (ordering all its lanes: each took part).
//
// One schedule is enough: the engine runs one schedule, in which every arrival joins one phase
// of its barrier. Another schedule groups the arrivals into the same phases (and so gives the
// same order) when no warp arrives twice in one phase and every arrival at a phase after the
// first is ordered after the completion of the phase before it (after a warp that waited at
// it), or a CTA-wide barrier came in between: by induction on the arrivals in the order of any
// schedule, the first one to join another phase would either come before the completion it is
// ordered after, or make a phase complete without one of its arrivals, which then joined a
// later phase earlier. `arrive` tells when an arrival breaks this; the engine then reports no
// positive verdict for the CTA (what it found in its one schedule, a race or a deadlock, is
// real all the same).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace volta::exec {

class NamedBarrierOrder {
public:
  static constexpr uint32_t kBarriers = 16; // ids 0..15

  explicit NamedBarrierOrder(uint32_t warps = 0) { reset(warps); }
  void reset(uint32_t warps);

  // Warp w arrives at barrier `id` (a bar.arrive, or a bar.sync whose phase completes) with its
  // accesses so far in phases up to `phase`, in the CTA-wide epoch `stamp`: they are released
  // to the waiters of the phase. False when the arrival could join another phase in another
  // schedule (above).
  bool arrive(uint32_t id, uint32_t w, uint32_t phase, uint32_t stamp);
  // The current phase of barrier `id` completes: each waiting warp (warp, its phase from now on)
  // acquires what the phase's arrivals released.
  void complete(uint32_t id, std::span<const std::pair<uint32_t, uint32_t>> waiters,
                uint32_t stamp);

  // For other synchronization objects (mbarriers, mbarrier_order.hpp) that order warps through
  // these clocks: what warp w releases now, with its own accesses of phases below `own`, joined
  // into `release` (one entry per warp); and warp w acquiring a release (every lane of w is
  // ordered after it from now on).
  void join_release(std::span<uint32_t> release, uint32_t w, uint32_t own) const;
  void acquire(uint32_t w, std::span<const uint32_t> release);
  uint32_t warps() const { return warps_; }

  // Warp w's clock (above), or null while no phase completed (nothing is ordered yet).
  const uint32_t* clock(uint32_t w) const {
    return completed_any_ ? &clock_[size_t{w} * warps_] : nullptr;
  }

private:
  uint32_t* clock_of(uint32_t w) { return &clock_[size_t{w} * warps_]; }
  // Whether warp w is ordered after the last completion of barrier `id`.
  bool after_completion(uint32_t id, uint32_t w, uint32_t stamp) const;

  struct Barrier {
    std::vector<uint32_t> release; // per warp: the join of the current phase's arrivals
    std::vector<uint32_t> arrived; // the warps that arrived in the current phase
    // The last completed phase: its epoch, and its waiters with their phases after it.
    bool completed = false;
    uint32_t stamp = 0;
    std::vector<std::pair<uint32_t, uint32_t>> waiters;
  };
  uint32_t warps_ = 0;
  bool completed_any_ = false;
  std::vector<uint32_t> clock_; // warps_ x warps_
  Barrier barriers_[kBarriers];
};

} // namespace volta::exec
