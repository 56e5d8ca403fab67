// Issue 30 (a): a rule takes part in proofs only when it is proved. Each test is a rule that
// random points cannot refute (they are small rationals) but that is wrong at an extreme or
// special input; before, `rules check --no-z3` passed such a rule as "tested" or "decided" and
// `prove --rules` used it. Now it is refuted (UNSOUND) or not proved (UNPROVED), refused either
// way, and the true rules beside them are PROVED.
#include <gtest/gtest.h>

#include "engine/rules_check/rule_check.hpp"
#include "engine/rules_check/trusted_axioms.hpp"
#include "engine/smt/z3_fallback.hpp"

namespace volta::rules_check {
namespace {

using Status = RuleCheckResult::Status;

RuleCheckResult check_one(const std::string& text, bool z3) {
  rules::RuleLibrary lib;
  const auto errors = lib.add(rules::RuleSource{"attack.rules", text});
  EXPECT_TRUE(errors.empty()) << (errors.empty() ? "" : errors.front().to_string());
  RuleCheckOptions o;
  o.points = 48;
  if (z3)
    o.prover = smt::make_z3_fallback(5'000);
  auto results = check_rules(lib, o);
  EXPECT_EQ(results.size(), 1u);
  return results.empty() ? RuleCheckResult{} : results[0];
}

// The rule is refused with and without Z3, and the random points did not refute it: only a
// proof (or its absence) decides.
void expect_refused_though_points_agree(const std::string& rule) {
  for (bool z3 : {false, true}) {
    const RuleCheckResult r = check_one(rule, z3);
    EXPECT_FALSE(r.ok()) << rule << (z3 ? " with Z3" : " without Z3") << ": " << r.detail;
    EXPECT_GT(r.points, 0) << rule;
    if (!z3) {
      EXPECT_EQ(r.status, Status::Unproved) << rule << ": " << r.detail;
      EXPECT_NE(r.detail.find("random points agree"), std::string::npos) << r.detail;
      EXPECT_NE(diagnostic(r).find("attack.rules:1:1: error: rule '"), std::string::npos)
          << diagnostic(r);
    }
  }
}

TEST(RuleProof, DroppingAMaxWithAFloorIsRefused) {
  // max(x, -10^6) = x for every sampled x (|x| <= 6), false for x < -10^6.
  expect_refused_though_points_agree("(rule drop-floor (max ?x -1000000) ?x)");
  // Z3 finds the point and evaluation confirms it: UNSOUND, with the point.
  const RuleCheckResult r = check_one("(rule drop-floor (max ?x -1000000) ?x)", true);
  EXPECT_EQ(r.status, Status::Unsound) << r.detail;
  EXPECT_NE(r.detail.find("Z3 found a counterexample"), std::string::npos) << r.detail;
}

TEST(RuleProof, DroppingAMaxWithATinyConstantIsRefused) {
  // The classic: max(x, 1e-30) "is" x — except at x = 0 and every x below 1e-30.
  const RuleCheckResult r =
      check_one("(rule drop-tiny-max (max ?x 1/1000000000000000000000000000000) ?x)", true);
  EXPECT_EQ(r.status, Status::Unsound) << r.detail;
  // Also behind an exponential, where the sampled points never come near: exp(x) < 1e-12 only
  // for x < -27.6.
  for (bool z3 : {false, true}) {
    const RuleCheckResult e =
        check_one("(rule drop-exp-floor (max (exp ?x) 1/1000000000000) (exp ?x))", z3);
    EXPECT_FALSE(e.ok()) << e.detail;
  }
}

TEST(RuleProof, ADomainHoleAwayFromTheSampledPointsIsRefused) {
  // (a·(b - 10^6)) / (b - 10^6) = a except at b = 10^6, where the left side is undefined. The
  // canonical forms agree (cross-multiplication); the points never reach b = 10^6.
  expect_refused_though_points_agree(
      "(rule cancel-far (/ (* ?a (+ ?b -1000000)) (+ ?b -1000000)) ?a :if (total ?a) (total ?b))");
  // A condition that does not exclude b = 10^6 does not help.
  const RuleCheckResult still = check_one(
      "(rule cancel-far (/ (* ?a (+ ?b -1000000)) (+ ?b -1000000)) ?a :if (total ?a) (nonzero "
      "?b))",
      true);
  EXPECT_FALSE(still.ok()) << "b != 0 is not b != 10^6: " << still.detail;
}

TEST(RuleProof, IdentitiesOfThePositiveRealsOnlyAreRefused) {
  EXPECT_EQ(check_one("(rule sqrt-of-square (sqrt (* ?x ?x)) ?x)", true).status, Status::Unsound);
  EXPECT_EQ(check_one("(rule sqrt-of-square (sqrt (* ?x ?x)) ?x)", false).status, Status::Unsound);
  const RuleCheckResult ok =
      check_one("(rule sqrt-of-square (sqrt (* ?x ?x)) ?x :if (nonneg ?x))", true);
  EXPECT_EQ(ok.status, Status::Proved) << ok.detail;
  EXPECT_EQ(check_one("(rule sqrt-of-square (sqrt (* ?x ?x)) (abs ?x))", true).status,
            Status::Proved);
}

TEST(RuleProof, TimesZeroIsProvedForTotalValuesOnly) {
  // Over the reals x·0 = 0 wherever x is defined; a variable may be bound to x/y, undefined at
  // y = 0, where the right side is still 0.
  EXPECT_EQ(check_one("(rule times-zero (* ?x 0) 0)", true).status, Status::Unsound);
  for (bool z3 : {false, true}) {
    const RuleCheckResult r = check_one("(rule times-zero (* ?x 0) 0 :if (total ?x))", z3);
    EXPECT_EQ(r.status, Status::Proved) << r.detail;
  }
}

TEST(RuleProof, FoldsOfTheExpressionBuilderHideNoDomain) {
  // select(c, a, a) is undefined where c is, a is not: the checker builds the instance as
  // written, not through the Builder that folds select(c, a, a) to a.
  EXPECT_FALSE(check_one("(rule select-same (select ?c ?a ?a) ?a)", true).ok());
  EXPECT_EQ(check_one("(rule select-same (select ?c ?a ?a) ?a :if (total ?c))", true).status,
            Status::Proved);
  // max(a, a) = a: both undefined exactly where a is.
  EXPECT_EQ(check_one("(rule max-same (max ?a ?a) ?a)", true).status, Status::Proved);
}

TEST(RuleProof, InfinitiesAreHandledByTheTrustedAxiomsOnly) {
  const RuleCheckResult r = check_one("(rule max-minus-inf (max -inf ?xs...) (max ?xs...))", true);
  EXPECT_EQ(r.status, Status::Proved) << r.detail;
  EXPECT_EQ(r.axioms, std::vector<std::string>{"max-identity"});
  // +inf is not the identity of max: no axiom, Z3 does not translate inf, so not proved.
  EXPECT_FALSE(check_one("(rule max-inf (max inf ?x) inf)", true).ok());
}

TEST(RuleProof, RestVariablesAreProvedForEveryLength) {
  const RuleCheckResult r = check_one(
      "(rule exp-of-sum-n (exp (+ ?a ?b ?xs...)) (* (exp ?a) (exp (+ ?b ?xs...))))", true);
  EXPECT_EQ(r.status, Status::Proved) << r.detail;
  EXPECT_NE(r.detail.find("rest variables of any length"), std::string::npos) << r.detail;
  // A condition that does not carry from the elements to their product (two negatives make a
  // positive) leaves the rule unproved, even where it happens to be true.
  const RuleCheckResult n = check_one(
      "(rule neg-of-product (neg (* ?a ?xs...)) (* (neg ?a) ?xs...) :if (negative ?xs...))", true);
  EXPECT_EQ(n.status, Status::Unproved) << n.detail;
  EXPECT_NE(n.detail.find("does not make the * of the elements negative"), std::string::npos)
      << n.detail;
}

TEST(RuleProof, TheTrustedAxiomsAreListed) {
  std::vector<std::string> names;
  for (const auto& a : trusted_axioms())
    names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"tanh-as-exp", "max-identity", "min-identity"}));
}

} // namespace
} // namespace volta::rules_check
