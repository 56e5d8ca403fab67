// `volta-eg rules check`: is every rule of a rule library sound? A rule lhs => rhs (under its
// conditions) is sound when, for every real assignment of its variables that satisfies the
// conditions, the two sides are defined at the same points and equal there — the strict notion
// that lets the e-graph merge them. Each rule is instantiated over fresh symbols (a rest
// variable with one, two and three of them) and
//   1. evaluated at random rational points that satisfy its conditions, exactly where the
//      operations allow and with outward-rounded intervals for exp, sqrt, tanh ... (a point
//      where the values certainly differ, or where one side is defined and the other is not,
//      makes the rule UNSOUND, with the point);
//   2. proved, where possible: by the Z3 fallback (domain-aware: definedness conditions are part
//      of the query; conditions are encoded as selects) -> PROVED, else by equal canonical forms
//      (equal as functions of the exp-polynomial algebra where both sides are defined, domains
//      tested at the points) -> DECIDED; otherwise the rule is TESTED only.
// Rules with a C++ applier are tested by running the applier on the instance in a small
// e-graph and evaluating what it produced.
#pragma once

#include <string>
#include <vector>

#include "engine/prove/element_prover.hpp"
#include "rules/rule_library.hpp"

namespace volta::rules_check {

struct RuleCheckOptions {
  int points = 64;              // evaluation points per instance
  uint64_t seed = 0x5eed;       // the points are reproducible
  prove::FallbackProver prover; // Z3 (may be empty: no proofs by Z3)
};

struct RuleCheckResult {
  enum class Status { Proved, Decided, Tested, Unsound, Untestable };
  std::string rule;  // the rule's name (NAME-rev for the reverse of a birule)
  std::string where; // file:line:col of the rule
  Status status = Status::Tested;
  std::string detail; // how it was proved, or the counterexample
  int points = 0;     // points evaluated with both sides defined
  bool ok() const { return status != Status::Unsound && status != Status::Untestable; }
};

const char* to_string(RuleCheckResult::Status s);

std::vector<RuleCheckResult> check_rules(const rules::RuleLibrary& library,
                                         const RuleCheckOptions& options);

} // namespace volta::rules_check
