// What every CTA of one kernel launch shares: the program, the configuration, the expression
// store, global/param/const memory, the epoch-stamp counter, the first failure (which stops
// every CTA, unless it is a data race) and the distinct data races.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <optional>

#include "engine/exec/global_memory.hpp"
#include "engine/exec/kernel_run.hpp"
#include "engine/exec/origin_log.hpp"
#include "engine/exec/pending_atomics.hpp"
#include "engine/exec/program.hpp"
#include "engine/exec/race_log.hpp"
#include "engine/launch/launch_config.hpp"
#include "engine/symbolic/bit_equality.hpp"
#include "engine/symbolic/builder.hpp"

namespace volta::exec {

struct RunOptions {
  bool check_races = true;
  // Stores of provably equal values by unordered threads are no race (the benign rule, the
  // default); false: every unordered pair of writes is (`--strict-races`; docs/semantics.md,
  // "Synchronization").
  bool benign_races = true;
  // Lanes of a warp that pass an mbarrier parity wait together (every live lane, one
  // instruction) in the engine's schedule pass it together in every schedule: they reconverged
  // before it. PTX does not promise it (`--assume-converged-waits`; docs/semantics.md, "Hopper
  // warp specialization"); off, each lane's wait must be ordered before the next phase's
  // completion on its own.
  bool converged_waits = false;
  uint64_t max_instructions = 0;             // 0: unlimited; else UNKNOWN-style stop (budget)
  const std::atomic<bool>* cancel = nullptr; // set from outside (timeout) to stop the run
  // Where to record the instruction behind every value (origin_log.hpp); null in every run
  // that decides a verdict.
  OriginLog* origins = nullptr;
};

struct LaunchContext {
  LaunchContext(const Program& p, const launch::KernelConfig& c, symbolic::ExprStore& s,
                GlobalMemory& g, RunOptions o)
      : program(p), config(c), store(s), global(g), options(o) {}

  const Program& program;
  const launch::KernelConfig& config;
  symbolic::ExprStore& store;
  GlobalMemory& global;
  RunOptions options;
  // The benign rule's equality of stored bits (asked only when two writes meet).
  symbolic::BitEquality bit_equality{store};
  // Which expression store the nodes of this launch live in, for a race shadow that outlives it
  // (GroupedLaunch: one store per group of CTAs, one shadow for all; StoredElement::generation).
  uint32_t store_generation = 0;
  ExprId undef = 0;                // uninitialized memory and registers
  std::vector<ByteCell> params;    // the kernel parameter buffer
  std::vector<ByteCell> constants; // .const memory
  std::atomic<uint32_t> next_stamp{1};
  // Serials of Op::Fresh nodes (atomic return values, schedule-dependent special registers):
  // they keep the nodes of different dynamic executions apart and appear in no report.
  std::atomic<uint32_t> next_fresh{1};
  // The lowest CTA index that failed so far (or, after a data race, the last CTA that still
  // looks for races): CTAs with a higher index stop early, lower ones run on, so that the
  // reported failure is the one of the lowest failing CTA whatever the schedule.
  std::atomic<uint32_t> failed_cta{UINT32_MAX};
  std::atomic<uint64_t> instructions{0};

  std::mutex failure_mutex;
  std::optional<std::pair<uint32_t, Failure>> failure; // (cta, failure): lowest CTA wins
  RaceLog races;                                       // under failure_mutex
  // After a data race the run goes on for the races after it, over the CTA that found it and
  // at most this many CTAs after it (most kernels repeat the same races in every CTA; the bound
  // keeps a racy kernel with a large grid about as fast as when the first race stopped it).
  static constexpr uint32_t kCtasAfterRace = 64;

  // Pending order-independent atomics on global memory, by address.
  std::mutex atomics_mutex;
  std::map<uint64_t, PendingAtomic> atomics;
  ExprId pending_marker = 0; // the node in cells whose value is a PendingAtomic
  // Set before the first pending marker is written anywhere (global or shared memory): until
  // then no plain access needs to look for markers.
  std::atomic<bool> markers_written{false};

  // The partial operations (node -> pc of its first creation) and the predicates decided over
  // the reals (KernelRun::partial_sites, control_roots), gathered from every CTA.
  std::mutex decisions_mutex;
  std::map<ExprId, uint32_t> partial_pcs;
  std::vector<ExprId> control_roots;

  void report(uint32_t cta, Failure f) {
    std::lock_guard guard(failure_mutex);
    if (!failure || cta < failure->first)
      failure.emplace(cta, std::move(f));
    stop_after(cta);
  }
  // A data race, the `seq`-th that CTA `cta` found: the first failure as for report(), and an
  // entry of the race log. Returns true when the run goes on; false when the race is a distinct
  // one past the log's limit (the CTA then stops as after any other failure).
  bool report_race(uint32_t cta, uint32_t seq, Failure f) {
    std::lock_guard guard(failure_mutex);
    const bool go_on = races.add(cta, seq, f);
    if (!failure || cta < failure->first)
      failure.emplace(cta, std::move(f));
    stop_after(go_on ? (cta > UINT32_MAX - kCtasAfterRace ? UINT32_MAX : cta + kCtasAfterRace)
                     : cta);
    return go_on;
  }
  // CTAs with a higher index than `last` need not run.
  void stop_after(uint32_t last) {
    uint32_t current = failed_cta.load();
    while (last < current && !failed_cta.compare_exchange_weak(current, last)) {
    }
  }
  bool should_stop(uint32_t cta) const {
    if (failed_cta.load(std::memory_order_relaxed) < cta)
      return true;
    return options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed);
  }
};

} // namespace volta::exec
