// The way forward of an UNKNOWN element (EntryResult::undecided): the limit that stopped it,
// the smallest pair of subterms left undecided, and what would decide it (a larger budget, by
// its flag, or a rule of the printed shape that `volta-eg rules check` can prove).
#pragma once

#include "engine/entry/entry_result.hpp"
#include "engine/entry/equivalence_entry.hpp"
#include "engine/prove/decide_elements.hpp"
#include "engine/prove/element_prover.hpp"

namespace volta::entry {

UndecidedElement describe_undecided(const symbolic::ExprStore& store, prove::ElementProver& prover,
                                    const prove::ElementTally& tally, const ProveOptions& options);

} // namespace volta::entry
