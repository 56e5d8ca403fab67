// The evaluator (symbolic/evaluate) and the device's value: a rounding to an integer observes the
// float the device computed, so the point evaluation behind counterexamples rounds an operand
// only where every rounded operation below it is exact at that point (Evaluator::inexact).
// Nodes are interned as they are, without the builder's folds.
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
using symbolic::FloatMode;
using symbolic::FloatMods;
using symbolic::kFormatBF16;
using symbolic::kFormatF32;
using symbolic::kNoExpr;
using symbolic::Node;
using symbolic::Op;
using symbolic::Rational;
using symbolic::RoundKind;
using Kind = EvalValue::Kind;

class EvaluateDeviceExactness : public ::testing::Test {
protected:
  ExprStore s;
  Assignment point;
  ExprId a = s.input(0, 0);

  void at(Rational value) { point.values[Assignment::input_key(0, 0)] = std::move(value); }
  ExprId op(Op o, uint8_t aux, ExprId x, ExprId y = kNoExpr) {
    return s.intern(Node{o, aux, 0, x, y, kNoExpr});
  }
  static uint8_t f32(FloatMode mode = FloatMode::Rn, bool ftz = false) {
    return FloatMods{mode, ftz, kFormatF32}.aux();
  }
  ExprId ceil(ExprId x) { return op(Op::RoundReal, static_cast<uint8_t>(RoundKind::Up), x); }
  EvalValue eval(ExprId id) { return Evaluator(s, point).eval(id); }
  bool inexact(ExprId id) {
    Evaluator ev(s, point);
    ev.eval(id);
    return ev.inexact(id);
  }
};

TEST_F(EvaluateDeviceExactness, ARoundingToAnIntegerOfAnInexactSumIsNotEvaluated) {
  const ExprId tiny = s.constant(Rational(1, 1L << 40)); // 2^-40
  const ExprId sum = op(Op::Add, f32(), a, tiny);
  // a = -7: -7 + 2^-40 is no f32 (the device rounds it to -7, whose ceiling is -7, not -6).
  at(Rational(-7));
  EXPECT_TRUE(inexact(sum));
  EXPECT_EQ(eval(sum).kind, Kind::Exact); // still its value over the reals
  EXPECT_EQ(eval(ceil(sum)).kind, Kind::Unknown);
  // a = 0: 2^-40 is an f32, and the ceiling of it 1 on the device too.
  at(Rational(0));
  EXPECT_FALSE(inexact(sum));
  ASSERT_EQ(eval(ceil(sum)).kind, Kind::Exact);
  EXPECT_EQ(eval(ceil(sum)).exact, Rational(1));
}

TEST_F(EvaluateDeviceExactness, ANarrowingThatRoundsOrAFlushIsInexact) {
  // The bf16 rounding of 2^-149 is 0 on the device (its smallest subnormal is 2^-133).
  const ExprId narrow =
      op(Op::Narrow, FloatMods{FloatMode::Rn, false, kFormatBF16}.aux(), a, kNoExpr);
  at(Rational(1) / Rational(mpz_class(1) << 149));
  EXPECT_TRUE(inexact(narrow));
  EXPECT_EQ(eval(ceil(narrow)).kind, Kind::Unknown);
  // .ftz flushes an f32 subnormal operand, an exactly representable one included.
  const ExprId doubled = op(Op::Add, f32(FloatMode::Rn, true), a, a);
  EXPECT_TRUE(inexact(doubled));
  EXPECT_FALSE(inexact(op(Op::Add, f32(), a, a)));
  // An operation the device computes exactly from exact operands stays exact; one above an
  // inexact operand does not.
  at(Rational(3, 2));
  EXPECT_FALSE(inexact(ceil(op(Op::Neg, f32(), a))));
  const ExprId third = op(Op::Div, f32(), a, s.constant(Rational(3)));
  EXPECT_FALSE(inexact(op(Op::Neg, f32(), third))); // 1/2
  at(Rational(1));
  EXPECT_TRUE(inexact(op(Op::Neg, f32(), third)));
}

} // namespace
} // namespace volta::etest
