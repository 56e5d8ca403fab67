// Shrinks a fuzz pair while it still shows a finding of one kind: drops outputs, replaces values
// by constants or by their own operands, turns branches into selects and staged loads into
// plain ones, shrinks the CTA, and removes what no output needs. Every candidate is a valid
// kernel of the fuzz language (initialized, in bounds), so the finding cannot turn into an
// artefact of the reduction.
#pragma once

#include <iosfwd>
#include <string>

#include "pair_check.hpp"

namespace volta::pair_fuzz {

// Removes the nodes nothing observable needs, renumbering the rest (and unused input arrays).
Kernel compact(const Kernel& k);

PairCase reduce_pair(const PairCase& c, const std::string& kind, const CheckOptions& options,
                     std::ostream* log = nullptr);

} // namespace volta::pair_fuzz
