// The happens-before order that mbarrier phases give the race check (race_shadow.hpp), and the
// checks that the engine's one schedule is enough for them. The bookkeeping of the objects
// themselves (phases, counts, tx-count) is CtaMbarriers (cta_mbarriers.hpp); this class keeps
// only what the race check and the schedule argument need, by the same shared address.
//
// Memory order (PTX ISA, "mbarrier", memory consistency model): an arrive (.release, the
// default), an arrive.expect_tx, an expect_tx and a complete_tx release the executing thread's
// accesses before it to the current phase; a test_wait/try_wait that returns true for a
// completed phase (.acquire, the default) acquires what that phase's arrivals released. The
// clocks are per warp (NamedBarrierOrder's, shared with the named barriers), an mbarrier
// operation is per thread, so the engine orders less than the hardware, never more:
// - an arrival releases the warp's accesses of every phase so far only when every lane of the
//   warp executes it together (none exited or elsewhere); the warp then starts a new phase, as
//   at bar.arrive. A partial-warp arrival releases only the phases before the warp's last
//   full-warp synchronization (every lane's accesses there are ordered before each lane), and
//   what the warp acquired;
// - a wait acquires for the warp when every live lane of the warp passes it at once, for one
//   phase of one mbarrier; the warp starts a new phase (without ordering its lanes). A wait
//   that only some lanes pass (one elected lane of a producer warp) acquires for each of those
//   lanes alone (NamedBarrierOrder::acquire_lane): the lane's later accesses, and its later
//   releases, are ordered after the phase; the lanes that did not wait get nothing from it,
//   until a full-warp synchronization orders them after the lane (named_barrier_order.hpp).
//   Each passed wait is an event, (a column of the clocks, a value): of the warp (its phase
//   after the wait) when the warp passed it, else of the lane (its count of lone acquires);
//   a thread is ordered after the wait when its clock's entry in the column is above the value.
//
// One schedule is enough when the phases mean the same in every schedule. The engine checks,
// and reports no positive verdict for the CTA when one fails (what it found, a race, a deadlock,
// is real all the same):
// - grouping: an arrival (or tx operation) that joins phase k >= 1 is ordered after the
//   completion of phase k-1, and no thread arrives twice in one phase (as for named barriers,
//   named_barrier_order.hpp: by induction on the arrivals in any schedule's order, every
//   arrival joins the same phase);
// - parity waits (the ISA: a parity names "the current phase or the immediately preceding
//   one"): a wait for phase P is ordered after the completion of phase P-1 (never early: it
//   cannot see phase P-1 current and take the parity for phase P-2), and the completion of
//   phase P+1 is ordered after the wait passed (never lapped: it cannot see phase P+2, of P's
//   parity, and wait for it). Token waits name their phase exactly.
// "Ordered after the completion of phase j" is: the thread saw it complete itself (a wait of
// its own returned true for phase >= j), or a CTA-wide barrier came after it, or the thread
// acquired (through its warp or alone) a release made after a wait for phase j passed: by a
// warp that passed it with all its lanes, or by a lane that passed it alone.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "engine/exec/named_barrier_order.hpp"

namespace volta::exec {

class MbarrierOrder {
public:
  void reset(uint32_t threads, uint32_t warps);
  // mbarrier.init (a fresh object) and mbarrier.inval (forgotten).
  void init(uint64_t addr);
  void inval(uint64_t addr) { bars_.erase(addr); }

  // Thread t of warp w joins phase `phase` with an arrival (`counted`) or a tx operation in
  // the epoch `stamp`, releasing warp w's phases below `own` and what w acquired. False when
  // another schedule could put it into another phase (above).
  bool arrive(const NamedBarrierOrder& clocks, uint64_t addr, uint32_t t, uint32_t w, uint32_t own,
              uint64_t phase, bool counted, uint32_t stamp);
  // Phase `phase` completed in the epoch `stamp`. False when a parity wait of the phase before
  // it is not ordered before it (it could be lapped in another schedule).
  bool complete(uint64_t addr, uint64_t phase, uint32_t stamp);
  // Thread t passed a wait for the completed phase `phase` in the epoch `stamp`.
  void observed(uint64_t addr, uint32_t t, uint64_t phase, uint32_t stamp);
  // Warp w, every live lane of it having passed a wait for the completed phase `phase`,
  // acquires its release; `after` is w's phase from now on.
  void acquire(NamedBarrierOrder& clocks, uint64_t addr, uint32_t w, uint64_t phase,
               uint32_t after);
  // Thread t alone passed a wait for phase `phase` (-1: the phase before phase 0, nothing to
  // acquire): it acquires the phase's release; returns the wait's event (column, value).
  std::pair<uint32_t, uint32_t> acquire_lane(NamedBarrierOrder& clocks, uint64_t addr, uint32_t t,
                                             int64_t phase);
  // A parity wait by thread t of warp w for phase `phase` (-1: the phase before phase 0, which
  // never completed): false when it could see an earlier phase in another schedule. Passed: the
  // wait returned true, its event is (column, after) (above), and the completion of phase + 1
  // must be ordered after it.
  bool parity_wait(const NamedBarrierOrder& clocks, uint64_t addr, uint32_t t, uint32_t w,
                   int64_t phase, uint32_t stamp);
  // `group` (0: none) joins the passes of one warp-instruction under the converged-waits
  // assumption (RunOptions::converged_waits): the next phase completing after one of them is
  // after them all, as the lanes passed together. A lane may pass with two events in one group
  // (its warp's and its own).
  void parity_passed(uint64_t addr, uint32_t t, uint32_t column, int64_t phase, uint32_t after,
                     uint32_t stamp, uint32_t group = 0);
  // Thread t passed, with every live lane of its warp, a wait for phase `phase` (-1: none
  // completed) that its warp acquired (`acquire`): an event of the lane's own, which its later
  // releases carry (a lone lane's arrive.expect_tx after the warp's wait), and a waiter of the
  // phase through it. Used under the converged-waits assumption only (its cost: an event column
  // for each such lane).
  std::pair<uint32_t, uint32_t> lane_passed(NamedBarrierOrder& clocks, uint64_t addr, uint32_t t,
                                            int64_t phase);
  // A fresh group id for parity_passed.
  uint32_t new_group() { return ++groups_; }

  // Whether thread t of warp w is ordered after the completion of phase `phase` of the
  // mbarrier at `addr` (false while it is pending, or when `addr` is no mbarrier).
  bool ordered_after(const NamedBarrierOrder& clocks, uint64_t addr, uint32_t t, uint32_t w,
                     uint64_t phase, uint32_t stamp) const;
  // A TMA copy's complete_tx, issued by thread t of warp w while phase `phase` is current: it
  // releases nothing of t (the async proxy performs it). False when the issue is not ordered
  // after the completion of the phase before (another schedule could count it elsewhere).
  // The phase is marked as one an asynchronous operation counts in: a CTA-wide barrier after
  // its completion in the engine's schedule does not order a thread after it (the copy may land
  // after the barrier), unless some thread saw the phase complete before the barrier.
  bool async_tx(const NamedBarrierOrder& clocks, uint64_t addr, uint32_t t, uint32_t w,
                uint64_t phase, uint32_t stamp);

private:
  struct Completed {
    std::vector<uint32_t> release;                      // per column: the arrivals' join
    std::vector<std::pair<uint32_t, uint32_t>> waiters; // the waits that acquired it: events
    uint32_t stamp = 0;                                 // the epoch it completed in
    bool async = false; // an asynchronous complete_tx (a TMA copy's) counted in it
    uint32_t observed_stamp = UINT32_MAX; // the first epoch a thread saw it complete in
  };
  struct Lapping { // a parity wait that passed: the next phase must complete after it
    uint32_t thread, column, after, stamp; // the waiter and its wait's event
    uint32_t group = 0;                    // parity_passed
  };
  struct Bar {
    std::vector<uint32_t> release;      // the current phase's releases, per column
    std::vector<uint64_t> arrived;      // per thread: 1 + the phase of its last arrival
    std::vector<uint64_t> seen;         // per thread: 1 + the last phase it saw complete
    std::map<uint64_t, Completed> done; // completed phases
    std::map<uint64_t, std::vector<Lapping>> lapping; // by the phase that must complete after
    uint64_t async_phase = 0; // 1 + the last phase an asynchronous complete_tx counted in
  };
  Bar& bar(uint64_t addr);
  // Whether thread t of warp w is ordered after the completion of phase j of `b`.
  bool after_completion(const NamedBarrierOrder& clocks, const Bar& b, uint32_t t, uint32_t w,
                        uint64_t j, uint32_t stamp) const;

  uint32_t threads_ = 0;
  uint32_t warps_ = 0;
  uint32_t groups_ = 0;
  std::map<uint64_t, Bar> bars_; // by shared address
};

} // namespace volta::exec
