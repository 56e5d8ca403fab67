// decide_with_z3 on small element pairs: proofs, confirmed counterexamples, never a false
// EQUIVALENT.
#include "engine/symbolic/evaluate.hpp"
#include "engine/symbolic/printer.hpp"
#include "smt_fixture.hpp"

namespace volta::smt::testing {
namespace {

using symbolic::CmpKind;

class FallbackTest : public SmtTest {
protected:
  // Re-checks a counterexample independently: parse its inputs back and evaluate both sides.
  void expect_real_counterexample(const prove::ElementOutcome& out, ExprId ref, ExprId opt) {
    ASSERT_EQ(out.kind, Kind::NotEquivalent) << out.reason;
    ASSERT_TRUE(out.counterexample.has_value());
    const auto& c = *out.counterexample;
    EXPECT_TRUE(c.confirmed);
    EXPECT_EQ(c.element, "O[0]");
    EXPECT_NE(c.reference_value, c.optimized_value);
    symbolic::Assignment point;
    for (const auto& [name, value] : c.inputs) {
      symbolic::Rational v(value);
      v.canonicalize();
      bool found = false;
      for (ExprId leaf : symbolic::leaves_below(store, {ref, opt})) {
        if (symbolic::leaf_name(store, leaf) != name)
          continue;
        const auto& n = store.node(leaf);
        point.values[n.op == Op::Param ? symbolic::Assignment::param_key(n.a)
                                       : symbolic::Assignment::input_key(n.a, n.b)] = v;
        found = true;
      }
      EXPECT_TRUE(found) << name;
    }
    symbolic::Evaluator ev(store, point);
    EXPECT_TRUE(symbolic::certainly_different(ev.eval(ref), ev.eval(opt)));
  }
};

TEST_F(FallbackTest, DistributivityIsProved) {
  const ExprId x = A(0), y = A(1), z = B(0);
  const auto out = decide(b.mul(x, b.add(y, z)), b.add(b.mul(x, y), b.mul(x, z)));
  EXPECT_EQ(out.kind, Kind::Equivalent) << out.reason;
  EXPECT_EQ(out.decided_by, prove::Decision::Z3);
}

TEST_F(FallbackTest, DifferentPolynomialsGetAConfirmedCounterexample) {
  const ExprId x = A(0), y = A(1), z = alpha();
  const ExprId ref = b.mul(x, b.add(y, z)), opt = b.add(b.mul(x, y), z);
  expect_real_counterexample(decide(ref, opt), ref, opt);
}

TEST_F(FallbackTest, MaxMinAbsAsIte) {
  const ExprId x = A(0), y = A(1);
  EXPECT_EQ(decide(b.max(x, y), b.neg(b.min(b.neg(x), b.neg(y)))).kind, Kind::Equivalent);
  EXPECT_EQ(decide(b.abs(x), b.max(x, b.neg(x))).kind, Kind::Equivalent);
  EXPECT_EQ(decide(b.max(x, y), b.select(b.cmp(CmpKind::Gt, x, y), x, y)).kind, Kind::Equivalent);
  // max(x, y) + min(x, y) = x + y
  EXPECT_EQ(decide(b.add(b.max(x, y), b.min(x, y)), b.add(x, y)).kind, Kind::Equivalent);
  const ExprId ref = b.max(x, y);
  expect_real_counterexample(decide(ref, x), ref, x);
}

TEST_F(FallbackTest, PredicatesAreZeroOneReals) {
  const ExprId x = A(0), y = A(1);
  const ExprId lt = b.cmp(CmpKind::Lt, x, y);
  EXPECT_EQ(decide(b.bool_not(lt), b.cmp(CmpKind::Ge, x, y)).kind, Kind::Equivalent);
  EXPECT_EQ(decide(b.boolean(Op::Xor, lt, lt), c(0)).kind, Kind::Equivalent);
  EXPECT_EQ(decide(b.boolean(Op::Or, lt, b.cmp(CmpKind::Ge, x, y)), c(1)).kind, Kind::Equivalent);
  const ExprId both = b.boolean(Op::And, lt, b.cmp(CmpKind::Lt, y, x));
  EXPECT_EQ(decide(b.select(both, x, y), y).kind, Kind::Equivalent);
  const ExprId ref = b.cmp(CmpKind::Le, x, y);
  expect_real_counterexample(decide(ref, lt), ref, lt);
}

TEST_F(FallbackTest, ExpProductLawProvesFusion) {
  const ExprId x = A(0), y = A(1);
  const auto out = decide(b.mul(exp(x), exp(y)), exp(b.add(x, y)));
  EXPECT_EQ(out.kind, Kind::Equivalent) << out.reason;
  // The online-softmax rescaling: e^(x-m1) * e^(m1-m2) = e^(x-m2).
  const ExprId m1 = B(0), m2 = B(1);
  EXPECT_EQ(decide(b.mul(exp(b.sub(x, m1)), exp(b.sub(m1, m2))), exp(b.sub(x, m2))).kind,
            Kind::Equivalent);
  // A quotient of exponentials (its divisor e^y is never 0).
  EXPECT_EQ(decide(b.div(exp(x), exp(y)), exp(b.sub(x, y))).kind, Kind::Equivalent);
}

TEST_F(FallbackTest, ExpOfProductIsNeverProved) {
  const ExprId x = A(0), y = A(1);
  const ExprId ref = exp(b.mul(x, y)), opt = b.mul(exp(x), exp(y));
  const auto out = decide(ref, opt);
  EXPECT_NE(out.kind, Kind::Equivalent);
  if (out.kind == Kind::NotEquivalent)
    expect_real_counterexample(out, ref, opt);
  // e^x * e^x is e^(2x), not e^(x^2).
  const auto out2 = decide(b.mul(exp(x), exp(x)), exp(b.mul(x, x)));
  EXPECT_NE(out2.kind, Kind::Equivalent);
}

TEST_F(FallbackTest, Ex2SharesTheExpLaws) {
  const ExprId x = A(0), y = A(1);
  const ExprId ex2x = b.unary(Op::Ex2, x), ex2y = b.unary(Op::Ex2, y);
  EXPECT_EQ(decide(b.mul(ex2x, ex2y), b.unary(Op::Ex2, b.add(x, y))).kind, Kind::Equivalent);
  const ExprId ln2 = store.intern(symbolic::Node{Op::Ln2});
  EXPECT_EQ(decide(ex2x, exp(b.mul(x, ln2))).kind, Kind::Equivalent);
  EXPECT_NE(decide(ex2x, exp(x)).kind, Kind::Equivalent);
}

TEST_F(FallbackTest, MonotonicityOfExp) {
  const ExprId x = A(0), y = A(1);
  EXPECT_EQ(decide(b.max(exp(x), exp(y)), exp(b.max(x, y))).kind, Kind::Equivalent);
}

TEST_F(FallbackTest, SqrtAndTanhFacts) {
  const ExprId x = A(0);
  const ExprId r = b.add(b.mul(x, x), c(1)); // x^2 + 1 >= 1
  const ExprId s = b.unary(Op::Sqrt, r);
  EXPECT_EQ(decide(b.mul(s, s), r).kind, Kind::Equivalent);
  // sqrt(x)^2 = x only for x >= 0; below 0 the left side is undefined.
  const ExprId sx = b.unary(Op::Sqrt, x);
  EXPECT_NE(decide(b.mul(sx, sx), x).kind, Kind::Equivalent);
  const ExprId t = b.unary(Op::Tanh, x);
  EXPECT_EQ(decide(b.cmp(CmpKind::Lt, t, c(1)), c(1)).kind, Kind::Equivalent);
  // Nothing else is known about tanh: tanh(2x) vs 2 tanh(x) is not decided either way.
  EXPECT_NE(decide(b.unary(Op::Tanh, b.mul(c(2), x)), b.mul(c(2), t)).kind, Kind::Equivalent);
}

TEST_F(FallbackTest, RsqrtIsOneOverSqrt) {
  const ExprId x = A(0);
  const ExprId r = b.add(b.mul(x, x), c(1));
  const auto out = decide(b.unary(Op::Rsqrt, r), b.unary(Op::Rcp, b.unary(Op::Sqrt, r)));
  EXPECT_EQ(out.kind, Kind::Equivalent) << out.reason;
  EXPECT_EQ(decide(b.mul(b.unary(Op::Rsqrt, r), b.unary(Op::Sqrt, r)), c(1)).kind,
            Kind::Equivalent);
}

TEST_F(FallbackTest, MakeZ3FallbackPlugsIntoTheProver) {
  prove::ElementOptions options;
  options.fallback = make_z3_fallback(10'000);
  // The rule library proves max(x,y) + min(x,y) = x + y (rule max-plus-min); without it the
  // element reaches the fallback, because canonical forms keep max and min as functions.
  options.saturate = false;
  const ExprId x = A(0), y = A(1);
  auto out =
      prove::prove_element(store, b.add(b.max(x, y), b.min(x, y)), b.add(x, y), "O[3]", options);
  EXPECT_EQ(out.kind, Kind::Equivalent) << out.reason;
  EXPECT_EQ(out.decided_by, prove::Decision::Z3);

  Z3Options declining;
  declining.decline_unknown = true;
  const auto fallback = make_z3_fallback(10'000, declining);
  EXPECT_FALSE(fallback(store, b.add(A(0), store.pos_inf()), A(0), "O[0]", nullptr).has_value());
  const auto decided = fallback(store, b.max(x, y), b.max(y, x), "O[0]", nullptr);
  ASSERT_TRUE(decided.has_value());
  EXPECT_EQ(decided->kind, Kind::Equivalent);
}

} // namespace
} // namespace volta::smt::testing
