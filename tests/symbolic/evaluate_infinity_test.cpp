// The evaluator (symbolic/evaluate) on infinite values: the point evaluation behind
// counterexamples must give causal attention's masked probability, exp((-inf·c - m·c)·ln2), its
// value 0, and must never give an infinity where the value is undefined or unknown. Nodes are
// interned as they are, without the builder's folds, so that the evaluator itself is tested.
#include <gtest/gtest.h>

#include "engine/symbolic/evaluate.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::etest {
namespace {

using symbolic::Assignment;
using symbolic::Evaluator;
using symbolic::EvalValue;
using symbolic::ExprId;
using symbolic::ExprStore;
using symbolic::kNoExpr;
using symbolic::Node;
using symbolic::Op;
using symbolic::Rational;
using Kind = EvalValue::Kind;

class EvaluateInfinity : public ::testing::Test {
protected:
  ExprStore s;
  Assignment point;
  ExprId x = s.input(0, 0); // 3 at the point
  ExprId y = s.input(0, 1); // 0 at the point
  ExprId ninf = s.neg_inf();
  ExprId pinf = s.pos_inf();
  ExprId ln2 = s.intern(Node{Op::Ln2});

  void SetUp() override {
    point.values[Assignment::input_key(0, 0)] = Rational(3);
    point.values[Assignment::input_key(0, 1)] = Rational(0);
  }
  ExprId op(Op o, ExprId a, ExprId b = kNoExpr, ExprId c = kNoExpr) {
    return s.intern(Node{o, 0, 0, a, b, c});
  }
  EvalValue eval(ExprId id) { return Evaluator(s, point).eval(id); }
};

TEST_F(EvaluateInfinity, ATimesOfKnownSignKeepsTheInfinity) {
  const ExprId quarter = s.constant(Rational(1, 4));
  EXPECT_EQ(eval(op(Op::Mul, ninf, quarter)).kind, Kind::NegInf);
  EXPECT_EQ(eval(op(Op::Mul, quarter, pinf)).kind, Kind::PosInf);
  EXPECT_EQ(eval(op(Op::Mul, ninf, s.constant(-2L))).kind, Kind::PosInf);
  EXPECT_EQ(eval(op(Op::Mul, ninf, ln2)).kind, Kind::NegInf); // an interval above 0
  EXPECT_EQ(eval(op(Op::Mul, ninf, x)).kind, Kind::NegInf);   // x = 3 at the point
  EXPECT_EQ(eval(op(Op::Mul, ninf, pinf)).kind, Kind::NegInf);
  EXPECT_EQ(eval(op(Op::Fma, ninf, quarter, x)).kind, Kind::NegInf);
}

TEST_F(EvaluateInfinity, TheMaskedProbabilityOfCausalAttentionIsZero) {
  const ExprId c = s.constant(Rational(4278775, 16777216)); // scale_log2 as an f32
  const ExprId masked = op(Op::Sub, op(Op::Mul, ninf, c), op(Op::Mul, x, c));
  const EvalValue p = eval(op(Op::Exp, op(Op::Mul, masked, ln2)));
  ASSERT_EQ(p.kind, Kind::Exact);
  EXPECT_EQ(p.exact, 0);
  // p · v + acc = acc
  const EvalValue sum = eval(op(Op::Fma, op(Op::Exp, op(Op::Mul, masked, ln2)), x, x));
  ASSERT_EQ(sum.kind, Kind::Exact);
  EXPECT_EQ(sum.exact, 3);
}

TEST_F(EvaluateInfinity, UndefinedAndUnknownProductsStayUnknown) {
  EXPECT_EQ(eval(op(Op::Mul, ninf, y)).kind, Kind::Unknown);              // 0 · inf
  EXPECT_EQ(eval(op(Op::Mul, ninf, s.constant(0L))).kind, Kind::Unknown); // 0 · inf
  EXPECT_EQ(eval(op(Op::Fma, y, pinf, x)).kind, Kind::Unknown);
  EXPECT_EQ(eval(op(Op::Sub, op(Op::Mul, ninf, ln2), ninf)).kind, Kind::Unknown); // inf - inf
  // sin of an inexact argument is not evaluated: inf times it has no known sign.
  EXPECT_EQ(eval(op(Op::Mul, ninf, op(Op::Sin, op(Op::Mul, x, ln2)))).kind, Kind::Unknown);
  // -inf plus a value the evaluator does not know (1/0: undefined) is not -inf.
  const ExprId undefined = op(Op::Div, x, y);
  ASSERT_EQ(eval(undefined).kind, Kind::Unknown);
  EXPECT_EQ(eval(op(Op::Add, ninf, undefined)).kind, Kind::Unknown);
  EXPECT_EQ(eval(op(Op::Fma, ninf, ln2, undefined)).kind, Kind::Unknown);
  EXPECT_EQ(eval(op(Op::Mul, ninf, undefined)).kind, Kind::Unknown);
}

// A fully masked row's running maximum is -inf, and its guard compares it with -inf: equal, so
// that a point where the guard holds can be found (c17_fully_masked_row_unguarded_wrong).
TEST_F(EvaluateInfinity, InfinitiesOfOneSignCompareEqual) {
  auto cmp = [&](symbolic::CmpKind k, ExprId a, ExprId b) {
    return eval(s.intern(Node{Op::Cmp, static_cast<uint8_t>(k), 0, a, b, kNoExpr}));
  };
  EXPECT_EQ(cmp(symbolic::CmpKind::Eq, ninf, ninf).exact, Rational(1));
  EXPECT_EQ(cmp(symbolic::CmpKind::Lt, ninf, ninf).exact, Rational(0));
  EXPECT_EQ(cmp(symbolic::CmpKind::Eq, pinf, pinf).exact, Rational(1));
  EXPECT_EQ(cmp(symbolic::CmpKind::Lt, ninf, pinf).exact, Rational(1));
  EXPECT_EQ(cmp(symbolic::CmpKind::Eq, ninf, x).exact, Rational(0)); // x = 3
}

} // namespace
} // namespace volta::etest
