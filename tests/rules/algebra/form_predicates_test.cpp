// The predicates of rule conditions, read off canonical forms: each must hold at every real
// point (a false answer only means "not known").
#include <gtest/gtest.h>

#include "egraph/sexpr.hpp"
#include "rules/algebra/form_predicates.hpp"
#include "rules/algebra/node_forms.hpp"

namespace volta::algebra {
namespace {

class Predicates : public ::testing::Test {
protected:
  bool holds(FormPredicate p, const char* s) {
    const auto t = egraph::to_tree(egraph::parse_term_or_throw(s, ml.lang));
    return algebra::holds(p, forms, nodes.form_of_tree(t));
  }
  MlLanguage ml = make_ml_language();
  canonical::CanonicalForms forms;
  NodeForms nodes{ml, forms};
};

using P = FormPredicate;

TEST_F(Predicates, Positive) {
  EXPECT_TRUE(holds(P::Positive, "3/4"));
  EXPECT_TRUE(holds(P::Positive, "(exp x)"));
  EXPECT_TRUE(holds(P::Positive, "(+ (exp x) (* 2 (exp y)))"));
  EXPECT_TRUE(holds(P::Positive, "(/ (exp a) (+ (exp a) (exp b)))"));
  EXPECT_FALSE(holds(P::Positive, "x"));
  EXPECT_FALSE(holds(P::Positive, "(* x x)")) << "zero at x = 0";
  EXPECT_FALSE(holds(P::Positive, "(+ (exp x) (neg 1))"));
  EXPECT_FALSE(holds(P::Positive, "(exp (/ 1 x))")) << "undefined at x = 0";
  EXPECT_FALSE(holds(P::Positive, "0"));
}

TEST_F(Predicates, NonnegativeNonzeroNegative) {
  EXPECT_TRUE(holds(P::Nonnegative, "(* x x)"));
  EXPECT_TRUE(holds(P::Nonnegative, "0"));
  EXPECT_FALSE(holds(P::Nonnegative, "(sqrt x)")) << "undefined for x < 0";
  EXPECT_TRUE(holds(P::Nonzero, "(neg (exp x))"));
  EXPECT_TRUE(holds(P::Negative, "(neg (exp x))"));
  EXPECT_FALSE(holds(P::Nonzero, "(* x x)"));
  EXPECT_FALSE(holds(P::Nonzero, "(+ x 1)"));
}

TEST_F(Predicates, TotalFiniteConstant) {
  EXPECT_TRUE(holds(P::Total, "(* x y)"));
  EXPECT_TRUE(holds(P::Total, "(max x 0)"));
  EXPECT_TRUE(holds(P::Total, "(tanh z)"));
  EXPECT_TRUE(holds(P::Total, "(exp (* 3 x))"));
  EXPECT_TRUE(holds(P::Total, "(+ (tanh z) x)"));
  EXPECT_TRUE(holds(P::Total, "(+ (* x y) (max x 0) (tanh z) (exp (* 3 x)))"))
      << "polynomials, exponentials and total functions of them";
  EXPECT_FALSE(holds(P::Total, "(/ x y)"));
  EXPECT_TRUE(holds(P::Total, "(/ x (+ 1 (exp y)))")) << "a positive denominator never vanishes";
  EXPECT_FALSE(holds(P::Total, "(sqrt x)"));
  EXPECT_FALSE(holds(P::Total, "(log2 x)"));
  EXPECT_TRUE(holds(P::Finite, "(/ x y)"));
  EXPECT_FALSE(holds(P::Finite, "inf"));
  EXPECT_FALSE(holds(P::Total, "-inf"));
  EXPECT_TRUE(holds(P::Constant, "(+ 1/2 1/4)"));
  EXPECT_FALSE(holds(P::Constant, "x"));
  EXPECT_EQ(form_predicate_named("nonneg"), P::Nonnegative);
  EXPECT_FALSE(form_predicate_named("even").has_value());
}

} // namespace
} // namespace volta::algebra
