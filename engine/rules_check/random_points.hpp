// The search for a counterexample to a rule instance at random points: exact rationals where the
// operations allow, outward-rounded intervals for exp, sqrt, tanh, log2 (symbolic/evaluate.hpp).
// A point where the two sides certainly differ, or where one side is defined and the other is
// not, is a counterexample. This finds wrong rules fast and explains them with a point; it
// never proves one (a rule that drops max(x, 1e-30) agrees at every small rational point but
// x = 0): rule_proof.hpp does that.
#pragma once

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/rules_check/rule_instance.hpp"

namespace volta::rules_check {

struct PointSearch {
  int points = 64;                // points tried per instance
  std::mt19937_64* rng = nullptr; // the points are reproducible from its seed
  int agreeing = 0;               // out: points where both sides were defined and agreed
};

// A description of a counterexample ("at ?a = 0, ?b = -3 the left side is -3 and the right side
// is 0"), or nullopt. Throws NotConvertible.
std::optional<std::string> find_counterexample(const algebra::MlLanguage& ml, const Instance& in,
                                               const std::vector<Condition>& conditions,
                                               PointSearch& search);

} // namespace volta::rules_check
