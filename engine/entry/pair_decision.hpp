// Deciding a prepared pair: every element pair (prove/decide_elements.hpp), then the domains —
// the optimized kernel defined wherever the reference is (prove/domain_conditions.hpp) — and
// the verdict they make together. An entry decides its pair once (the whole grid), or once per
// group of CTAs (entry/streamed_entry.hpp), adding the counts up in the one EntryResult.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "engine/entry/entry_result.hpp"
#include "engine/entry/equivalence_entry.hpp"
#include "engine/entry/pair_preparation.hpp"
#include "engine/prove/decide_elements.hpp"

namespace volta::entry {

// What deciding one prepared pair found, besides the counts it added to the entry's result.
struct PairDecision {
  prove::ElementTally tally;
  std::string domain_failure; // a refuted domain condition (result.counterexample is its point)
  std::optional<std::string> domain_unknown; // an undecided domain condition
  // domain_unknown says that the reference is defined on no input (an unconditional assumption
  // its signs refute): true of the whole grid as soon as of one group of its CTAs.
  bool vacuous = false;
  // domain_unknown is the entry's time limit (or a cancel) reached among the domain conditions.
  bool domain_timed_out = false;

  // Every element equal and every domain condition discharged.
  bool proved() const {
    return tally.counts.not_equivalent == 0 && !tally.stopped && !tally.unknown_reason &&
           domain_failure.empty() && !domain_unknown;
  }
};

// Decides the elements of `pair` and, when none differs, the domains; adds the element counts,
// proof-cache hits, e-graph statistics, domain summary, solver calls and phase times to
// `result`, and sets its counterexample when one was found.
PairDecision decide_pair(PreparedPair& pair, const ProveOptions& options,
                         std::chrono::steady_clock::time_point entry_start, EntryResult& result);

// The verdict and detail of an entry whose elements were all decided with `decision` (the
// counts in `result` are the entry's): NOT_EQUIVALENT with the counterexample run concretely,
// UNKNOWN with its guard, or EQUIVALENT with how the elements were proved.
// (`entry_start`: the entry's time limit counts from there; the witness search stops at it.)
void conclude(const launch::ManifestEntry& entry, const ProveOptions& options,
              const PairDecision& decision, std::chrono::steady_clock::time_point entry_start,
              EntryResult& result);

} // namespace volta::entry
