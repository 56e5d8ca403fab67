// The outcome of deciding one output element: EQUIVALENT, NOT_EQUIVALENT or UNKNOWN, with how it
// was decided and, when a resource limit left it undecided, which one. Both are enums that the
// layers above count and classify; the text fields are for people only (no layer parses them).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "engine/counterexample.hpp"
#include "engine/prove/decision.hpp"

namespace volta::prove {

struct ElementOutcome {
  enum class Kind { Equivalent, NotEquivalent, Unknown };
  Kind kind = Kind::Unknown;
  Decision decided_by = Decision::Undecided;
  size_t cases = 0;          // Decision::Cases: how many cases
  Limit limit = Limit::None; // UNKNOWN: the limit that stopped the work, if one did
  std::string reason;        // UNKNOWN: why
  std::optional<Counterexample> counterexample;
  std::vector<std::string> rules_used; // proved by the rule library: the rules that fired
  bool in_egraph = false;              // proved in the shared e-graph, whose ids are `roots`
  // Proved only where the reference is defined by an assumption it makes elsewhere (a case
  // outside its domain was not compared): true of this pair, not of the element's template —
  // no template reuse, no proof cache (the renamed element may lack the assumption).
  bool uses_reference_domain = false;
  std::array<uint32_t, 2> roots{};

  // "canonical form", "cases (3 cases)": how it was decided, in words.
  std::string how() const;
};

} // namespace volta::prove
