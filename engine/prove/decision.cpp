#include "engine/prove/decision.hpp"

namespace volta::prove {

std::string_view describe(Decision d) {
  switch (d) {
  case Decision::Undecided:
    return "undecided";
  case Decision::SameNode:
    return "same node";
  case Decision::SameValue:
    return "same value";
  case Decision::SameBytes:
    return "same bytes";
  case Decision::SameBits:
    return "same bits";
  case Decision::EGraph:
    return "e-graph";
  case Decision::CanonicalForm:
    return "canonical form";
  case Decision::CrossMultiplication:
    return "cross-multiplication";
  case Decision::Cases:
    return "cases";
  case Decision::Rules:
    return "rules";
  case Decision::Z3:
    return "z3";
  case Decision::Cache:
    return "cache";
  case Decision::Counterexample:
    return "counterexample";
  case Decision::DifferentBytes:
    return "different bytes";
  case Decision::DifferentBits:
    return "different bits";
  case Decision::Z3Counterexample:
    return "z3 counterexample";
  }
  return "undecided";
}

} // namespace volta::prove
