// Streamed proofs of an equivalence entry over a whole grid (issue 18): both kernels run a
// group of CTAs at a time (exec/grouped_launch.hpp), each group into an expression store of
// its own, and the elements the group wrote are proved and dropped before the next group runs,
// so that memory follows one group's values instead of the whole grid's.
//
// The groups split both grids into the same number of runs of consecutive CTAs. A group's
// elements are final when the group is over: a later CTA that touched them would race with
// the one that wrote them, which the race shadow (kept across groups) reports. The reference's
// domain conditions assumed while checking a group are those of the group only, fewer than the
// whole grid's: a group can only fail to discharge more, never less.
//
// An EQUIVALENT entry comes out of here, and an UNKNOWN one whose group left an element
// undecided (the whole grid would leave the same element undecided, after repeating the work in
// a store the size of the grid). Everything else — a grid the groups do not split the same way
// in both kernels (a group's written elements differ), a failure or race, a difference, an
// undecided domain condition — abandons the groups, and the entry runs over the whole grid at
// once, which reports it exactly as without streaming.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "engine/entry/entry_result.hpp"
#include "engine/entry/equivalence_entry.hpp"
#include "engine/exec/kernel_cache.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::entry {

// How many groups of CTAs the grids of `reference` and `optimized` are split into: the largest
// common divisor of both CTA counts that leaves at least `min_ctas` CTAs a group in the
// smaller grid; 1 when there is none (no streaming).
uint32_t group_count(uint64_t reference_ctas, uint64_t optimized_ctas, uint32_t min_ctas);

// The fewest CTAs a group holds: `requested` when not 0, else enough to keep the cores busy
// (8, or 4 per core where that is more).
uint32_t min_ctas_per_group(uint32_t requested);

// The entry proved EQUIVALENT group by group, UNKNOWN in a group, or nullopt (see above).
std::optional<EntryResult> prove_streamed(const launch::ManifestEntry& entry,
                                          exec::KernelCache& kernels, const ProveOptions& options,
                                          std::chrono::steady_clock::time_point entry_start);

} // namespace volta::entry
