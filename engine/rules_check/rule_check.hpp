// `volta-eg rules check`: is every rule of a rule library proved sound? A rule lhs => rhs (under
// its conditions) is sound when, for every assignment of its variables that satisfies the
// conditions — each variable a real number or undefined (a class the e-graph holds may be
// undefined at some points: x/y at y = 0) — the two sides are both undefined, or both defined
// and equal: the strict notion that lets the e-graph merge them. A rule takes part in proofs
// only when it is PROVED; otherwise `rules check` fails and `prove --rules FILE` refuses the
// file. For each rule:
//
//   1. random points (random_points.hpp), over instances with rest variables of one, two and
//      three elements and variables also bound to quotients n/d: a point where the sides
//      differ, or where one is defined and the other is not, makes the rule UNSOUND, with it;
//   2. a proof (rule_proof.hpp) of the instance with one-element rest variables, variables
//      without a `total` condition bound to quotients, after the trusted axioms
//      (trusted_axioms.hpp): by Z3, else by the canonical forms. One element suffices: a rest
//      variable of AC operator op stands for op(elements) wherever it occurs, which ranges over
//      the same values (real or undefined) as one element, and every condition on it must hold
//      of op(elements) too (condition_lifts; a rule whose condition does not lift is not
//      proved). A refutation by Z3 confirmed by evaluation makes the rule UNSOUND;
//   3. otherwise the rule is UNPROVED and refused like an unsound one.
//
// Rules with a C++ applier are run on an instance in a small e-graph and what the applier built
// is evaluated at the points; they are proved by construction when the applier is one whose
// result is the canonical form of the matched value itself (canonical-term).
#pragma once

#include <string>
#include <vector>

#include "engine/prove/element_prover.hpp"
#include "rules/rule_library.hpp"

namespace volta::rules_check {

struct RuleCheckOptions {
  int points = 64;              // evaluation points per instance
  uint64_t seed = 0x5eed;       // the points are reproducible
  prove::FallbackProver prover; // Z3 (may be empty: proofs by the canonical forms only)
};

struct RuleCheckResult {
  enum class Status { Proved, Unsound, Unproved };
  enum class Proof { None, Z3, CanonicalForms, Applier };
  std::string rule;  // the rule's name (NAME-rev for the reverse of a birule)
  std::string where; // file:line:col of the rule
  Status status = Status::Unproved;
  Proof proof = Proof::None;       // how a PROVED rule was proved
  std::vector<std::string> axioms; // the trusted axioms its proof used
  std::string detail;              // how it was proved, the counterexample, or why no proof
  int points = 0;                  // random points with both sides defined and equal
  bool ok() const { return status == Status::Proved; }
};

const char* to_string(RuleCheckResult::Status s);
const char* to_string(RuleCheckResult::Proof p);

std::vector<RuleCheckResult> check_rules(const rules::RuleLibrary& library,
                                         const RuleCheckOptions& options);

// The line `rules check` prints for a result: "FILE:LINE:COL: rule 'x': proved (...)", or
// "FILE:LINE:COL: error: rule 'x' is UNSOUND: ..." / "... could not be proved ...".
std::string diagnostic(const RuleCheckResult& r);

// The appliers whose rules are proved by construction.
bool trusted_applier(const std::string& name);

} // namespace volta::rules_check
