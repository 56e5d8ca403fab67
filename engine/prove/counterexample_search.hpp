// The search for a counterexample to one element: points of small rationals (integer inputs
// take small integers and integers near the ends of their signed range, so that wrap-around
// shows) at which the two values certainly differ, with the inputs that do not matter zeroed.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/counterexample.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::prove {

class SpecificationDomain;

// Tries `random_points` points, seeded by `element` (the same element gets the same points in
// every run); returns a confirmed counterexample, or nullopt when every point agreed. With a
// `specification`, a point counts only where it is defined (its assumptions' leaves take values
// too, and minimizing keeps it defined): out of the reference's domain the optimized kernel may
// store anything.
std::optional<Counterexample>
find_counterexample(const symbolic::ExprStore& store, symbolic::ExprId ref, symbolic::ExprId opt,
                    const std::string& element, int random_points,
                    const SpecificationDomain* specification = nullptr);

// The inputs of a point where `specification` is defined (its assumptions' leaves valued, zeros
// left out), for a difference that holds on every input (two constants): nullopt when no point
// tried is in its domain. Empty when it has no assumption on any input.
std::optional<std::vector<std::pair<std::string, std::string>>>
inputs_in_domain(const symbolic::ExprStore& store, const SpecificationDomain* specification);

} // namespace volta::prove
