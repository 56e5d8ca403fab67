// Turns a Z3 model into a counterexample only when the engine's own evaluation confirms it. A
// model interprets exp, sqrt, ... as arbitrary functions, so its point is only a candidate: it
// is accepted when exact or interval evaluation of both DAG roots at that point
// (engine/symbolic/evaluate.hpp) shows that the real values certainly differ. Irrational model
// values arrive as rationals within 1e-30 (solve_once.hpp): just another candidate point.
#pragma once

#include <optional>
#include <string>
#include <z3++.h>

#include "engine/counterexample.hpp"
#include "engine/smt/translate.hpp"
#include "engine/symbolic/evaluate.hpp"

namespace volta::prove {
class SpecificationDomain; // prove/domain_conditions.hpp
}

namespace volta::smt {

// The point a model gives the leaves of `t`: values[i] is the model's text for t.leaves[i] (see
// CheckResult::values); a leaf without a usable value reads as 0.
symbolic::Assignment point_from_values(const Translation& t, const symbolic::ExprStore& store,
                                       const std::vector<std::string>& values);

// The constants of the leaves of `t`, in order: what to observe in a model for the above.
std::vector<z3::expr> leaf_constants(const Translation& t);

// The counterexample at `point` when the two roots certainly differ there, and the point lies in
// `specification`'s domain where one is given (a model of the element alone may sit where the
// reference divides by zero in another element).
std::optional<Counterexample>
confirm_point(const symbolic::ExprStore& store, symbolic::ExprId ref, symbolic::ExprId opt,
              const std::string& element, const symbolic::Assignment& point,
              const prove::SpecificationDomain* specification = nullptr);

} // namespace volta::smt
