// Which ground facts are added, and that they stay within their caps.
#include "engine/smt/ground_laws.hpp"
#include "smt_fixture.hpp"

namespace volta::smt::testing {
namespace {

class GroundLawsTest : public SmtTest {
protected:
  LawStats laws(ExprId ref, ExprId opt, const LawOptions& options = {}) {
    z3::context ctx;
    auto r = translate_pair(ctx, store, ref, opt);
    EXPECT_TRUE(std::holds_alternative<Translation>(r));
    LawStats stats;
    const z3::expr_vector facts =
        ground_laws(ctx, store, std::get<Translation>(r), options, &stats);
    const bool uses_ln2 = std::get<Translation>(r).ln2.has_value();
    EXPECT_EQ(facts.size(), stats.total() + (uses_ln2 ? 1u : 0u));
    return stats;
  }
};

TEST_F(GroundLawsTest, ProductFactsOnlyForOccurringSums) {
  const ExprId x = A(0), y = A(1);
  const LawStats s = laws(b.mul(exp(x), exp(y)), exp(b.add(x, y)));
  EXPECT_EQ(s.exp_positive, 6u); // 3 exp terms, 2 facts each
  EXPECT_EQ(s.exp_products, 1u); // exp(x)exp(y) = exp(x+y); x+x, y+y, ... do not occur
  EXPECT_EQ(s.exp_zero, 1u);     // exp(0) = 1
  // exp(x*y): no sum of arguments is an argument.
  const LawStats none = laws(exp(b.mul(x, y)), b.mul(exp(x), exp(y)));
  EXPECT_EQ(none.exp_products, 0u);
}

TEST_F(GroundLawsTest, NormalizationMatchesReorderedAndCancellingArguments) {
  const ExprId x = A(0), y = A(1);
  // exp(x+y) and exp(y+x) are different nodes with one normal form.
  EXPECT_EQ(laws(exp(b.add(x, y)), exp(b.add(y, x))).exp_same_arg, 1u);
  // exp(x - x) has the argument 0.
  EXPECT_EQ(laws(exp(b.sub(x, x)), c(1)).exp_zero, 2u);
  // exp(x) exp(-x) = 1, exp(x) exp(x) = exp(2x) and exp(-x) exp(2x) = exp(x).
  const LawStats s = laws(b.mul(exp(x), exp(b.neg(x))), exp(b.mul(c(2), x)));
  EXPECT_EQ(s.exp_products, 3u);
}

TEST_F(GroundLawsTest, PolynomialFormsExpandProductsAndKnowLn2) {
  const ExprId x = A(0), y = A(1);
  // (x+y)(x-y) and x*x - y*y
  EXPECT_EQ(
      laws(exp(b.mul(b.add(x, y), b.sub(x, y))), exp(b.sub(b.mul(x, x), b.mul(y, y)))).exp_same_arg,
      1u);
  // ex2(x) and exp(x * ln2), ex2(x/2) and exp(ln2 * x * 1/2)
  const ExprId ln2 = store.intern(symbolic::Node{Op::Ln2});
  EXPECT_EQ(laws(b.unary(Op::Ex2, x), exp(b.mul(ln2, x))).exp_same_arg, 1u);
  EXPECT_EQ(laws(b.unary(Op::Ex2, b.div(x, c(2))), exp(b.mul(b.mul(ln2, x), q(1, 2)))).exp_same_arg,
            1u);
  // A division by a non-constant is an atom: x/y + x/y = 2 (x/y).
  const ExprId r = b.div(x, y);
  EXPECT_EQ(laws(b.mul(exp(r), exp(r)), exp(b.mul(c(2), r))).exp_products, 1u);
}

TEST_F(GroundLawsTest, CapsBoundTheWork) {
  ExprId sum = c(0);
  for (int i = 0; i < 200; ++i)
    sum = b.add(sum, exp(b.add(A(i), B(i))));
  LawOptions tight;
  tight.max_pair_checks = 1000; // of 200 * 201 / 2
  tight.max_monotonic_pairs = 5;
  const LawStats s = laws(sum, c(0), tight);
  EXPECT_TRUE(s.pair_checks_capped);
  EXPECT_EQ(s.exp_monotonic, 10u); // 5 pairs, both directions
  EXPECT_EQ(s.exp_positive, 400u);
}

TEST_F(GroundLawsTest, SqrtAndBoundedFunctions) {
  const ExprId x = A(0);
  const LawStats s = laws(b.add(b.unary(Op::Sqrt, x), b.unary(Op::Tanh, x)),
                          b.add(b.unary(Op::Sin, x), b.unary(Op::Cos, x)));
  EXPECT_EQ(s.sqrt_facts, 1u);
  EXPECT_EQ(s.bounded, 3u);
  EXPECT_EQ(s.exp_positive, 0u);
}

} // namespace
} // namespace volta::smt::testing
