// What an UNKNOWN element leaves open, for a person to act on: the smallest pair of subterms
// left undecided (the two values walked down from the root in parallel while their operators
// match and only one operand pair is not known equal), printed in the rule language with the
// inputs as pattern variables, so that a rule of that shape can be written, checked
// (`volta-eg rules check`) and given with `--rules`.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "engine/symbolic/expr_store.hpp"

namespace volta::prove {

struct UndecidedPair {
  symbolic::ExprId ref = 0, opt = 0;
};

// `known_equal(a, b)`: the prover knows a and b equal (the same node, the same canonical form).
// One step per level (no tree walk of the shared DAGs).
UndecidedPair
smallest_undecided(const symbolic::ExprStore& store, symbolic::ExprId ref, symbolic::ExprId opt,
                   const std::function<bool(symbolic::ExprId, symbolic::ExprId)>& known_equal);

// The rule `(rule NAME REF OPT)` over the ML language (docs/rules.md), each input element a
// variable (`X[3]` -> `?x3`... the same input the same variable on both sides); nullopt when a
// side holds an operator the rule language has no word for, or is longer than `max_chars`.
// Each side is printed once per DAG node (memoized), so shared subterms cost nothing extra.
std::optional<std::string> rule_of_shape(const symbolic::ExprStore& store, UndecidedPair pair,
                                         const std::string& name, size_t max_chars);

} // namespace volta::prove
