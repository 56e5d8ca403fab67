// How the domain conditions of an equivalence entry were discharged (docs/semantics.md,
// "Domains"), as counts reports show.
#pragma once

#include <cstddef>

namespace volta::prove {

// The reference's conditions are assumptions, the optimized kernel's obligations.
// With --mutual, the converse direction's obligations are added to the same counts.
struct DomainSummary {
  size_t assumptions = 0; // conditions of the specification kernel
  size_t obligations = 0; // conditions of the checked kernel
  size_t by_sign = 0;     // discharged by the sign analysis
  size_t by_guard = 0;    // by the select that guards the operation
  size_t by_assumption = 0;
  size_t by_z3 = 0;     // by the solver, under the assumptions
  size_t failed = 0;    // refuted by a counterexample
  size_t undecided = 0; // neither discharged nor refuted
  bool mutual = false;  // both directions checked
};

} // namespace volta::prove
