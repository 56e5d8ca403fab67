// Unit tests of the canonical forms (rules/canonical): the identities of the exp-polynomial
// class they decide, and the ones they must not claim.
#include <gtest/gtest.h>

#include "rules/algebra/canonical/canonical_forms.hpp"

namespace volta::canonical {
namespace {

class Forms : public ::testing::Test {
protected:
  CanonicalForms f;
  Id x = f.symbol(1, "x");
  Id y = f.symbol(2, "y");
  Id z = f.symbol(3, "z");
  Id c(int64_t n, int64_t d = 1) { return f.constant(Coef::ratio(n, d)); }
};

TEST_F(Forms, SumsAreCommutativeAndAssociative) {
  EXPECT_TRUE(f.equal(f.add(f.add(x, y), z), f.add(x, f.add(z, y))));
  EXPECT_FALSE(f.equal(f.add(x, y), f.add(x, z)));
}

TEST_F(Forms, DistributivityAndConstants) {
  EXPECT_TRUE(f.equal(f.mul(x, f.add(y, z)), f.add(f.mul(x, y), f.mul(z, x))));
  EXPECT_TRUE(f.equal(f.mul(c(1, 8), f.add(x, x)), f.mul(c(1, 4), x)));
  EXPECT_FALSE(f.equal(f.mul(c(1, 8), x), f.mul(c(126, 1000), x)));
  EXPECT_TRUE(f.equal(f.sub(x, x), c(0)));
}

TEST_F(Forms, ExponentialsFuse) {
  EXPECT_TRUE(f.equal(f.mul(f.exp(x), f.exp(y)), f.exp(f.add(x, y))));
  EXPECT_TRUE(f.equal(f.div(c(1), f.exp(x)), f.exp(f.neg(x))));
  EXPECT_TRUE(f.equal(f.exp(c(0)), c(1)));
  // exp(a*b) is not exp(a)*exp(b).
  EXPECT_FALSE(f.equal(f.exp(f.mul(x, y)), f.mul(f.exp(x), f.exp(y))));
}

TEST_F(Forms, OnlineSoftmaxRescalingCancels) {
  // l2 = l1 * exp(m1 - m2) + exp(s - m2) with l1 = exp(s1 - m1): equals exp(s1 - m2) + exp(s - m2).
  const Id m1 = f.symbol(10, "m1"), m2 = f.symbol(11, "m2"), s1 = f.symbol(12, "s1"),
           s = f.symbol(13, "s");
  const Id l1 = f.exp(f.sub(s1, m1));
  const Id l2 = f.add(f.mul(l1, f.exp(f.sub(m1, m2))), f.exp(f.sub(s, m2)));
  EXPECT_TRUE(f.equal(l2, f.add(f.exp(f.sub(s1, m2)), f.exp(f.sub(s, m2)))));
  // O2 = (l1 * alpha * (N1 / l1) + P) / l2: the running denominator cancels.
  const Id n1 = f.mul(f.exp(f.sub(s1, m1)), x);
  const Id o1 = f.div(n1, l1);
  const Id o2 =
      f.div(f.add(f.mul(f.mul(l1, f.exp(f.sub(m1, m2))), o1), f.mul(f.exp(f.sub(s, m2)), y)), l2);
  const Id reference =
      f.div(f.add(f.mul(f.exp(s1), x), f.mul(f.exp(s), y)), f.add(f.exp(s1), f.exp(s)));
  EXPECT_TRUE(f.equal(o2, reference));
}

TEST_F(Forms, QuotientsUpToScaling) {
  // (2x + 2y) / (4z + 4) = (x + y) / (2z + 2)
  const Id a = f.div(f.add(f.mul(c(2), x), f.mul(c(2), y)), f.add(f.mul(c(4), z), c(4)));
  const Id b = f.div(f.add(x, y), f.add(f.mul(c(2), z), c(2)));
  EXPECT_TRUE(f.equal(a, b));
  EXPECT_FALSE(f.equal(a, f.div(f.add(x, y), f.add(z, c(2)))));
}

TEST_F(Forms, MaxIsFlattenedSortedAndDropsMinusInfinity) {
  const Id args1[] = {f.neg_inf(), x, y};
  const Id inner[] = {y, x};
  const Id args2[] = {f.max(inner), x};
  EXPECT_TRUE(f.equal(f.max(args1), f.max(args2)));
  const Id mins[] = {x, y};
  EXPECT_FALSE(f.equal(f.max(args1), f.min(mins)));
}

TEST_F(Forms, InfinitiesAreNotFoldedAway) {
  EXPECT_TRUE(f.equal(f.exp(f.neg_inf()), c(0)));
  EXPECT_TRUE(f.is_undefined(f.add(f.pos_inf(), f.neg_inf())));
  EXPECT_TRUE(f.is_undefined(f.mul(c(0), f.pos_inf())));
  EXPECT_TRUE(f.is_undefined(f.div(x, c(0))));
  EXPECT_TRUE(f.is_undefined(f.mul(x, f.pos_inf())));   // unknown sign
  EXPECT_EQ(f.mul(f.exp(x), f.pos_inf()), f.pos_inf()); // exp is positive
}

// Causal attention's masked scores: exp2(-inf * scale - m * scale) is exp((-inf * c - m * c) *
// ln2), and ln 2 is a positive constant, so the masked probability is exactly 0 (it was
// "infinity times a value of unknown sign" before ln2 was known to be positive).
TEST_F(Forms, InfinityTimesAPositiveSymbolStaysInfinite) {
  const Id ln2 = f.positive_symbol(1ull << 62, "ln2");
  const Id masked = f.sub(f.mul(f.neg_inf(), c(1, 4)), f.mul(x, c(1, 4)));
  EXPECT_EQ(masked, f.neg_inf());
  EXPECT_EQ(f.mul(masked, ln2), f.neg_inf());
  EXPECT_TRUE(f.equal(f.exp(f.mul(masked, ln2)), c(0)));
  EXPECT_EQ(f.mul(f.pos_inf(), f.mul(c(3), f.div(c(1), ln2))), f.pos_inf()); // any power
  EXPECT_EQ(f.mul(f.neg_inf(), f.mul(c(-2), ln2)), f.pos_inf());
  // The softmax numerator with one masked key: e^{(s-m)ln2}·v0 + e^{-inf}·v1 = e^{(s-m)ln2}·v0.
  const Id p0 = f.exp(f.mul(f.sub(x, y), ln2));
  EXPECT_TRUE(f.equal(f.add(f.mul(p0, z), f.mul(f.exp(f.mul(masked, ln2)), c(7))), f.mul(p0, z)));
}

// What must stay undefined: a positive symbol is not a licence for any symbol, nor for a sum
// with one, nor for an infinity minus an infinity.
TEST_F(Forms, PositiveSymbolsDoNotMakeOtherInfinitiesDefined) {
  const Id ln2 = f.positive_symbol(1ull << 62, "ln2");
  EXPECT_TRUE(f.is_undefined(f.mul(f.neg_inf(), f.mul(ln2, x))));    // x: unknown sign
  EXPECT_TRUE(f.is_undefined(f.mul(f.neg_inf(), f.sub(ln2, c(1))))); // a sum: unknown sign
  EXPECT_TRUE(f.is_undefined(f.mul(f.neg_inf(), f.mul(ln2, c(0))))); // zero
  EXPECT_TRUE(f.is_undefined(f.sub(f.mul(f.neg_inf(), ln2), f.neg_inf())));
  // The positive ln2 and a plain symbol of the same key are different atoms.
  EXPECT_FALSE(f.equal(ln2, f.symbol(1ull << 62, "ln2")));
}

TEST_F(Forms, SelectOfAComparisonIsMaxOrMin) {
  using Cmp = CanonicalForms::Cmp;
  const Id pair[] = {x, y};
  EXPECT_TRUE(f.equal(f.select(f.compare(Cmp::Gt, x, y), x, y), f.max(pair)));
  EXPECT_TRUE(f.equal(f.select(f.compare(Cmp::Lt, x, y), x, y), f.min(pair)));
  EXPECT_TRUE(f.equal(f.select(f.compare(Cmp::Lt, c(1), c(2)), x, y), x));
}

TEST_F(Forms, CoefficientsOverflowToBigRationals) {
  Id acc = x;
  for (int i = 0; i < 80; ++i)
    acc = f.mul(acc, c(3)); // 3^80 x, far beyond 64 bits
  Id again = x;
  for (int i = 0; i < 40; ++i)
    again = f.mul(again, c(9));
  EXPECT_TRUE(f.equal(acc, again));
  EXPECT_FALSE(f.equal(acc, f.mul(again, c(3))));
}

TEST_F(Forms, BudgetStopsBlowUp) {
  f.set_term_budget(10000);
  Id p = c(1);
  bool stopped = false;
  try {
    for (int i = 0; i < 20; ++i)
      p = f.canonical(f.mul(p, f.add(x, f.add(y, f.symbol(100 + i, "w")))));
  } catch (const BudgetExceeded&) {
    stopped = true;
  }
  EXPECT_TRUE(stopped);
}

// The prover resets the count before each element: one element that blew the budget does not
// starve the next ones (a layernorm's later rows used to end UNKNOWN one after another).
TEST_F(Forms, BudgetIsRenewedPerElement) {
  f.set_term_budget(2000);
  Id p = c(1);
  EXPECT_THROW(
      {
        for (int i = 0; i < 20; ++i)
          p = f.canonical(f.mul(p, f.add(x, f.add(y, f.symbol(100 + i, "w")))));
      },
      BudgetExceeded);
  EXPECT_THROW((void)f.canonical(f.mul(f.add(x, y), f.add(x, y))), BudgetExceeded)
      << "without a reset every later form is refused";
  f.reset_term_count();
  const Id square = f.canonical(f.mul(f.add(x, y), f.add(x, y)));
  EXPECT_TRUE(f.equal(square, f.add(f.mul(x, x), f.add(f.mul(c(2), f.mul(x, y)), f.mul(y, y)))));
}

} // namespace
} // namespace volta::canonical
