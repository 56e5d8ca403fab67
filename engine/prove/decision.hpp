// How an element was decided, and which resource limit left it undecided: enums the layers
// above count and classify (reports, guards), with the words reports use for them.
#pragma once

#include <cstdint>
#include <string_view>

namespace volta::prove {

// How an element was decided.
enum class Decision : uint8_t {
  Undecided,
  // EQUIVALENT
  SameNode,            // one DAG node on both sides
  SameValue,           // one value once stored bit patterns are read in the stores' type
  SameBytes,           // concrete values of different types with equal bytes
  SameBits,            // two equal stored bit patterns
  EGraph,              // one e-class on insertion into the shared e-graph
  CanonicalForm,       // equal canonical forms
  CrossMultiplication, // quotients equal after cross-multiplication
  Cases,               // by cases on the comparisons the signs do not decide
  Rules,               // saturation with the rule library
  Z3,                  // the Z3 fallback
  Cache,               // the template's proof was kept by an earlier run (--cache)
  // NOT_EQUIVALENT
  Counterexample,   // a point where the values certainly differ
  DifferentBytes,   // concrete values whose stored bytes differ
  DifferentBits,    // stored bit patterns that differ as floats too
  Z3Counterexample, // a model of Z3, confirmed by the engine's own evaluation
};

// "same node", "canonical form", "z3", ...: the words reports and `explain` use.
std::string_view describe(Decision d);

// The resource limit that left an element UNKNOWN, when one did.
enum class Limit : uint8_t {
  None,
  TermBudget,        // the canonical forms' term budget, or --max-terms refused it to Z3
  Z3TranslationSize, // more DAG nodes than Z3 is given (without --max-terms: not a guard)
  ENodeBudget,       // --rule-nodes stopped the saturation of the element
  SaturationTime,    // --rule-seconds stopped it
};

} // namespace volta::prove
