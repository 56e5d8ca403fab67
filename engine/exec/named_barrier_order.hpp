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
// of its barrier, and each phase's arrivals add up to its thread count exactly (more is refused
// by the CTA). Another schedule groups the arrivals into the same phases (and so gives the same
// order) when every arrival at a phase after the first is ordered after the completion of the
// phase before it (after a warp that waited at it), or a CTA-wide barrier came in between. Take
// the first arrival, in the order of any schedule, that joins another phase than here. An
// earlier phase: it is ordered after that phase's completion, which came before it. A later
// one: its own phase completed without it, from arrivals that (being earlier) all joined their
// phases as here, so a strict subset of the phase's arrivals reached its count, which they add
// up to only all together. A warp may arrive more than once in one phase (FlashAttention-3's
// store warp arrives with the consumers and then waits with its own bar.sync; the hardware
// counts each arrival): the argument counts arrivals, not warps. `arrive` tells when an arrival
// breaks the condition; the engine then reports no positive verdict for the CTA (what it found
// in its one schedule, a race or a deadlock, is real all the same).
//
// Lanes that acquire alone (an mbarrier wait that only some lanes of a warp pass: one elected
// lane of a producer warp, mbarrier_order.hpp) get a row of their own: the warp's row joined
// with what that lane acquired, which orders that lane's accesses and releases only (the other
// lanes did not wait: they get no order from it). Such a lane also gets an event column of its
// own (a "slot" after the warp columns), counting its lone acquires: a release the lane makes
// after one carries it, so that whoever acquires that release is known to be ordered after the
// lane's wait (what the mbarrier parity checks need). A lane's own accesses still belong to its
// warp's phases (the race shadow knows no other), so its release of them stays what the warp's
// partial-lane release gives. A full-warp synchronization of the live lanes (bar.warp.sync, a
// warp collective, a barrier the warp waits at) orders every lane's past with every lane's
// future: the lanes' rows and events merge into the warp's row there.
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
  // `threads` defaults to 32 per warp.
  void reset(uint32_t warps, uint32_t threads = UINT32_MAX);

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
  // these clocks: what thread t of warp w releases now, with its warp's accesses of phases below
  // `own`, what t acquired and t's own lone acquires so far, joined into `release` (one entry
  // per column, grown as needed); warp w acquiring a release (every lane of w is ordered after
  // it from now on); and thread t alone acquiring one (null: nothing, only the event), which
  // returns t's event (its column, and the value a release of t carries from now on: a row whose
  // entry there is at least that value is ordered after the event).
  void join_release(std::vector<uint32_t>& release, uint32_t t, uint32_t w, uint32_t own) const;
  void acquire(uint32_t w, std::span<const uint32_t> release);
  std::pair<uint32_t, uint32_t> acquire_lane(uint32_t t, std::span<const uint32_t> release);
  // The live lanes `members` of warp w synchronized all together (above).
  void warp_synced(uint32_t w, uint32_t members);
  uint32_t warps() const { return warps_; }

  // Warp w's clock (above), or null while no phase completed (nothing is ordered yet).
  const uint32_t* clock(uint32_t w) const { return completed_any_ ? rows_[w].data() : nullptr; }
  // Thread t's clock: its own row when it acquired alone since its warp last synchronized,
  // else its warp's (null as above).
  const uint32_t* thread_clock(uint32_t t) const {
    if (!completed_any_)
      return nullptr;
    return lane_rows_[t].empty() ? rows_[t / 32].data() : lane_rows_[t].data();
  }
  // Whether some lane of warp w has a row of its own.
  bool lanes_apart(uint32_t w) const { return apart_[w] != 0; }
  // Whether thread t is ordered after the event (column, after): its row's entry in the
  // column is above `after`.
  bool ordered_after(uint32_t t, uint32_t column, uint32_t after) const;

private:
  static void join(std::vector<uint32_t>& into, std::span<const uint32_t> from);
  const std::vector<uint32_t>& row_of_thread(uint32_t t) const {
    return lane_rows_[t].empty() ? rows_[t / 32] : lane_rows_[t];
  }
  // Whether warp w is ordered after the last completion of barrier `id`.
  bool after_completion(uint32_t id, uint32_t w, uint32_t stamp) const;

  struct Barrier {
    std::vector<uint32_t> release; // per column: the join of the current phase's arrivals
    // The last completed phase: its epoch, and its waiters with their phases after it.
    bool completed = false;
    uint32_t stamp = 0;
    std::vector<std::pair<uint32_t, uint32_t>> waiters;
  };
  uint32_t warps_ = 0;
  uint32_t threads_ = 0;
  bool completed_any_ = false;
  // Rows: per warp (at least warps_ entries), and per thread (empty: the warp's); a row may be
  // shorter than the columns (missing entries are 0).
  std::vector<std::vector<uint32_t>> rows_;
  std::vector<std::vector<uint32_t>> lane_rows_;
  std::vector<uint32_t> apart_;      // per warp: the lanes with a row of their own
  std::vector<uint32_t> slotted_;    // per warp: the lanes with an event column
  std::vector<uint32_t> slot_of_;    // per thread: its event column, 0 for none
  std::vector<uint32_t> slot_count_; // per event column - warps_: the owner's lone acquires
  Barrier barriers_[kBarriers];
};

} // namespace volta::exec
