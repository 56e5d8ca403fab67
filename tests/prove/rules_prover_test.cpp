// The prover's rule pass: element pairs outside the exp-polynomial class
// that the canonical forms cannot decide and the shipped rule library proves in the shared
// e-graph, that stay UNKNOWN without it, and that a researcher's rule file extends; a wrong
// pair is still NOT_EQUIVALENT with a counterexample.
#include <gtest/gtest.h>

#include "engine/entry/equivalence_entry.hpp"
#include "engine/symbolic/builder.hpp"

namespace volta::prove {
namespace {

using symbolic::ExprId;
using symbolic::Op;
using Kind = ElementOutcome::Kind;

class RulesProver : public ::testing::Test {
protected:
  RulesProver() : b(store) { a = store.add_array_name("A"); }
  ExprId A(uint32_t i) { return store.input(a, i); }
  ExprId c(long v) { return store.constant(v); }
  ExprId exp(ExprId x) { return b.unary(Op::Exp, x); }
  ElementOutcome prove(ExprId ref, ExprId opt, bool saturate = true,
                       const rules::RuleLibrary* lib = nullptr) {
    ElementOptions o;
    o.saturate = saturate;
    o.rules = lib;
    return prove_element(store, ref, opt, "O[0]", o);
  }
  void expect_rules_prove(ExprId ref, ExprId opt) {
    const ElementOutcome with = prove(ref, opt);
    EXPECT_EQ(with.kind, Kind::Equivalent) << with.reason;
    EXPECT_EQ(with.decided_by, prove::Decision::Rules);
    EXPECT_FALSE(with.rules_used.empty());
    const ElementOutcome without = prove(ref, opt, false);
    EXPECT_EQ(without.kind, Kind::Unknown)
        << "the canonical forms alone must not decide it: " << without.how();
  }
  symbolic::ExprStore store;
  symbolic::Builder b;
  uint32_t a = 0;
};

TEST_F(RulesProver, MaxOfShiftedValues) {
  // Safe softmax's maximum taken after a bias: max(x + c, y + c) = max(x, y) + c.
  const ExprId x = A(0), y = A(1), cc = A(2);
  expect_rules_prove(b.max(b.add(x, cc), b.add(y, cc)), b.add(b.max(x, y), cc));
}

TEST_F(RulesProver, MaxPlusMin) {
  const ExprId x = A(0), y = A(1);
  expect_rules_prove(b.add(b.max(x, y), b.min(x, y)), b.add(x, y));
}

TEST_F(RulesProver, SaturationClampsInEitherOrder) {
  // .sat as min(max(x, 0), 1) against max(min(x, 1), 0).
  const ExprId x = A(0);
  expect_rules_prove(b.min(b.max(x, c(0)), c(1)), b.max(b.min(x, c(1)), c(0)));
}

TEST_F(RulesProver, ExpCommutesWithMax) {
  const ExprId x = A(0), y = A(1);
  expect_rules_prove(exp(b.max(x, y)), b.max(exp(x), exp(y)));
}

TEST_F(RulesProver, SquareRootOfAPositiveSquare) {
  // sqrt(v) * sqrt(v) with v = e^x + 1 > 0 (a variance plus epsilon, say).
  const ExprId v = b.add(exp(A(0)), c(1));
  const ExprId s = b.unary(Op::Sqrt, v);
  expect_rules_prove(b.mul(b.mul(s, s), A(1)), b.mul(v, A(1)));
}

TEST_F(RulesProver, WrongPairsStayNotEquivalent) {
  const ExprId x = A(0), y = A(1);
  const ElementOutcome out = prove(b.max(x, y), b.min(x, y));
  EXPECT_EQ(out.kind, Kind::NotEquivalent);
  ASSERT_TRUE(out.counterexample.has_value());
  EXPECT_TRUE(out.counterexample->confirmed);
}

TEST_F(RulesProver, TheRuleLibraryDoesNotProveWhatIsFalseWhereSamplesAgree) {
  // max(x, y) and max(x, y, 0) agree at every point where x or y is positive, which random
  // points often are; neither the forms nor the rules may call them equal.
  const ExprId x = A(0), y = A(1);
  const ElementOutcome out = prove(b.max(x, y), b.max(b.max(x, y), c(0)));
  EXPECT_NE(out.kind, Kind::Equivalent);
}

TEST_F(RulesProver, TheENodeBudgetStopsTheSaturationWithItsReason) {
  // exp(max(x + c, y + c)) against max(e^x, e^y) * e^c: the proof goes through terms neither
  // kernel has (max(x, y) + c, exp of it), so it needs new e-nodes. It succeeds within the
  // default budget; with a budget of one new e-node the saturation stops first, and the element
  // is UNKNOWN with the budget named as the reason.
  const ExprId x = A(0), y = A(1), cc = A(2);
  const ExprId ref = exp(b.max(b.add(x, cc), b.add(y, cc)));
  const ExprId opt = b.mul(b.max(exp(x), exp(y)), exp(cc));
  ElementOptions o;
  const ElementOutcome proved = prove_element(store, ref, opt, "O[0]", o);
  EXPECT_EQ(proved.kind, Kind::Equivalent) << proved.reason;
  o.saturation.new_nodes = 1;
  const ElementOutcome out = prove_element(store, ref, opt, "O[0]", o);
  EXPECT_EQ(out.kind, Kind::Unknown);
  EXPECT_NE(out.reason.find("stopped: e-node budget of 1 new e-nodes"), std::string::npos)
      << out.reason;
}

TEST_F(RulesProver, AResearchersRuleFileExtendsTheLibrary) {
  // tanh is odd: a fact the shipped library does not have.
  const ExprId x = A(0);
  const ExprId ref = b.unary(Op::Tanh, b.neg(x)), opt = b.neg(b.unary(Op::Tanh, x));
  EXPECT_EQ(prove(ref, opt).kind, Kind::Unknown);
  rules::RuleLibrary lib = rules::RuleLibrary::shipped();
  ASSERT_TRUE(
      lib.add(rules::RuleSource{"mine.rules", "(rule tanh-odd (tanh (neg ?x)) (neg (tanh ?x)))"})
          .empty());
  const ElementOutcome out = prove(ref, opt, true, &lib);
  EXPECT_EQ(out.kind, Kind::Equivalent) << out.reason;
  ASSERT_EQ(out.rules_used.size(), 1u);
  EXPECT_EQ(out.rules_used[0], "tanh-odd");
}

} // namespace
} // namespace volta::prove
