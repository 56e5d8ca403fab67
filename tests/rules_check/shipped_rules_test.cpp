// Every shipped rule passes `volta-eg rules check`: sound, with the same
// domain on both sides, and proved by Z3 wherever Z3 can.
#include <gtest/gtest.h>

#include "engine/rules_check/rule_check.hpp"
#include "engine/smt/z3_fallback.hpp"

namespace volta::rules_check {
namespace {

TEST(ShippedRules, EveryRuleIsSound) {
  const rules::RuleLibrary lib = rules::RuleLibrary::shipped();
  RuleCheckOptions o;
  o.prover = smt::make_z3_fallback(5'000);
  const auto results = check_rules(lib, o);
  EXPECT_EQ(results.size(), lib.size());
  for (const auto& r : results) {
    EXPECT_TRUE(r.ok()) << r.where << " " << r.rule << ": " << to_string(r.status) << " "
                        << r.detail;
    EXPECT_GT(r.points, 0) << r.rule;
  }
}

} // namespace
} // namespace volta::rules_check
