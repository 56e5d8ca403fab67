// Turns a Z3 model into a counterexample only when the engine's own evaluation confirms it. A
// model interprets exp, sqrt, ... as arbitrary functions and may divide by zero, so its point is
// a candidate: it is accepted when exact or interval evaluation of both DAG roots at that point
// (engine/prove/evaluate.hpp) shows that the real values certainly differ.
#pragma once

#include "engine/driver/entry_result.hpp"
#include "engine/prove/evaluate.hpp"
#include "engine/smt/translate.hpp"

#include <optional>
#include <string>
#include <z3++.h>

namespace volta::smt {

// A model value as a rational: exactly for rational numerals; for an algebraic number (nonlinear
// problems have irrational models) a rational within 1e-30 of it, which is just another
// candidate point, confirmed like any other. nullopt for anything else.
std::optional<symbolic::Rational> model_rational(z3::context& ctx, const z3::expr& value);

// The values the model gives the leaves of the translation (unassigned leaves read as 0).
prove::Assignment point_from_model(z3::context& ctx, z3::model& model, const Translation& t,
                                   const symbolic::ExprStore& store);

// The counterexample at `point` when the two roots certainly differ there.
std::optional<driver::Counterexample> confirm_point(const symbolic::ExprStore& store,
                                                    symbolic::ExprId ref, symbolic::ExprId opt,
                                                    const std::string& element,
                                                    const prove::Assignment& point);

} // namespace volta::smt
