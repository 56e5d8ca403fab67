// Every shipped rule is PROVED by `volta-eg rules check` (by Z3, the canonical forms or the
// trusted axioms, docs/rules.md): the prover never trusts a shipped rule that is only tested.
#include <gtest/gtest.h>

#include "engine/rules_check/rule_check.hpp"
#include "engine/smt/z3_fallback.hpp"

namespace volta::rules_check {
namespace {

TEST(ShippedRules, EveryRuleIsProved) {
  const rules::RuleLibrary lib = rules::RuleLibrary::shipped();
  RuleCheckOptions o;
  o.prover = smt::make_z3_fallback(5'000);
  const auto results = check_rules(lib, o);
  EXPECT_EQ(results.size(), lib.size());
  for (const auto& r : results) {
    EXPECT_EQ(r.status, RuleCheckResult::Status::Proved)
        << r.where << " " << r.rule << ": " << to_string(r.status) << " " << r.detail;
    EXPECT_NE(r.proof, RuleCheckResult::Proof::None) << r.rule;
    EXPECT_GT(r.points, 0) << r.rule;
  }
}

} // namespace
} // namespace volta::rules_check
