// `volta-eg rules check`: unsound rules of every kind are caught with a counterexample; sound
// rules are proved by Z3, by the canonical forms or by construction (appliers), and a rule that
// is neither refuted nor proved is UNPROVED (refused).
#include <gtest/gtest.h>

#include "engine/rules_check/rule_check.hpp"
#include "engine/smt/z3_fallback.hpp"

namespace volta::rules_check {
namespace {

using Status = RuleCheckResult::Status;

std::vector<RuleCheckResult> check(const std::string& text, bool z3 = true) {
  rules::RuleLibrary lib;
  const auto errors = lib.add(rules::RuleSource{"t.rules", text});
  EXPECT_TRUE(errors.empty()) << errors.front().to_string();
  RuleCheckOptions o;
  o.points = 48;
  if (z3)
    o.prover = smt::make_z3_fallback(5'000);
  return check_rules(lib, o);
}

Status status_of(const std::string& rule, bool z3 = true) {
  const auto r = check(rule, z3);
  EXPECT_EQ(r.size(), 1u);
  return r.empty() ? Status::Unproved : r[0].status;
}

TEST(RuleCheck, UnsoundValuesAreCaught) {
  EXPECT_EQ(status_of("(rule drop (+ ?a ?b) ?a)"), Status::Unsound);
  EXPECT_EQ(status_of("(rule exp-of-product (exp (* ?a ?b)) (* (exp ?a) (exp ?b)))"),
            Status::Unsound);
  EXPECT_EQ(status_of("(rule max-is-first (max ?a ?b) ?a)"), Status::Unsound);
  EXPECT_EQ(status_of("(rule sqrt-of-square (sqrt (* ?x ?x)) ?x)"), Status::Unsound);
  EXPECT_EQ(status_of("(rule sat-is-relu (min (max ?x 0) 1) (max ?x 0))"), Status::Unsound);
  EXPECT_EQ(status_of("(rule rest-dropped (+ ?a ?xs...) (+ ?xs...))"), Status::Unsound);
  const auto r = check("(rule drop (+ ?a ?b) ?a)");
  EXPECT_NE(r[0].detail.find("the left side is"), std::string::npos) << r[0].detail;
  EXPECT_EQ(r[0].where, "t.rules:1:1");
}

TEST(RuleCheck, DomainDifferencesAreCaught) {
  // x/x = 1 only where x != 0; 0 * y = 0 only where y is defined (y may be bound to a quotient).
  const auto r = check("(rule div-self (/ ?a ?a) 1)");
  EXPECT_EQ(r[0].status, Status::Unsound);
  EXPECT_NE(r[0].detail.find("defined at different points"), std::string::npos) << r[0].detail;
  EXPECT_EQ(status_of("(rule mul-zero (* 0 ?xs...) 0)"), Status::Unsound);
  EXPECT_EQ(status_of("(rule absorb (max ?a (min ?a ?b)) ?a)"), Status::Unsound);
  // With the conditions that make them sound:
  EXPECT_EQ(status_of("(rule div-self (/ ?a ?a) 1 :if (nonzero ?a))"), Status::Proved);
  EXPECT_EQ(status_of("(rule mul-zero (* 0 ?xs...) 0 :if (total ?xs...))"), Status::Proved);
  EXPECT_EQ(status_of("(rule absorb (max ?a (min ?a ?b)) ?a :if (total ?b))"), Status::Proved);
}

TEST(RuleCheck, ProofMethods) {
  auto proof_of = [](const std::string& rule, bool z3 = true) {
    const auto r = check(rule, z3);
    EXPECT_EQ(r.size(), 1u);
    EXPECT_TRUE(r.empty() || r[0].ok()) << to_string(r[0].status) << " " << r[0].detail;
    return r.empty() ? RuleCheckResult::Proof::None : r[0].proof;
  };
  using Proof = RuleCheckResult::Proof;
  EXPECT_EQ(proof_of("(rule f (* ?a (+ ?b ?c)) (+ (* ?a ?b) (* ?a ?c)))"), Proof::Z3);
  // Without Z3, an identity of the exp-polynomial class whose sides are total is proved by the
  // canonical forms; one outside it is not proved at all, and refused.
  EXPECT_EQ(proof_of("(rule f (* ?a (+ ?b ?c)) (+ (* ?a ?b) (* ?a ?c)))", false),
            Proof::CanonicalForms);
  EXPECT_EQ(status_of("(rule f (+ (max ?a ?b) (min ?a ?b)) (+ ?a ?b))", false), Status::Unproved);
  // tanh is uninterpreted for Z3; with the trusted axiom tanh(a) = (e^2a - 1)/(e^2a + 1) the
  // odd symmetry is proved, and the result names the axiom.
  const auto tanh = check("(rule tanh-odd (tanh (neg ?x)) (neg (tanh ?x)))");
  ASSERT_EQ(tanh.size(), 1u);
  EXPECT_EQ(tanh[0].status, Status::Proved) << tanh[0].detail;
  EXPECT_EQ(tanh[0].axioms, std::vector<std::string>{"tanh-as-exp"});
  EXPECT_NE(tanh[0].detail.find("trusted axioms tanh-as-exp"), std::string::npos) << tanh[0].detail;
  // sin and cos are evaluated at exact points (enclosures): sin = cos is refuted.
  EXPECT_EQ(status_of("(rule sin-cos (sin ?x) (cos ?x))"), Status::Unsound);
  // sin is uninterpreted and has no axiom: a true identity about it is not proved, so refused.
  EXPECT_EQ(status_of("(rule sin-odd (sin (neg ?x)) (neg (sin ?x)))"), Status::Unproved);
  EXPECT_EQ(status_of("(rule sin-sin (sin (sin ?x)) (cos (cos ?x)))"), Status::Unproved);
}

TEST(RuleCheck, AppliersAreTestedOnWhatTheyBuild) {
  const auto r = check("(rule normalize (* (+ ?a ?b) (+ ?a (neg ?b))) :apply canonical-term)");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].ok()) << to_string(r[0].status) << " " << r[0].detail;
  EXPECT_EQ(r[0].proof, RuleCheckResult::Proof::Applier);
}

} // namespace
} // namespace volta::rules_check
