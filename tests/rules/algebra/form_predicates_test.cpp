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

// Deep sharing (issue 31): a chain of n maxima and minima, each over the one below it twice
// (m_{i+1} = max(m_i, y·m_i), then min), is a DAG of n atoms whose tree has 2^n paths.
// Totality is decided once per form and atom, so n = 10^4 takes milliseconds; a walk of the tree
// would not end. (Max and min alternate: nested maxima are flattened into one atom.)
canonical::Id max_min_chain(canonical::CanonicalForms& forms, canonical::Id m, canonical::Id y,
                            int depth) {
  for (int i = 0; i < depth; ++i) {
    const canonical::Id args[] = {m, forms.mul(y, m)};
    m = i % 2 == 0 ? forms.max(args) : forms.min(args);
  }
  return m;
}

TEST_F(Predicates, DeepSharingIsWalkedOnce) {
  constexpr int kDepth = 10'000;
  const canonical::Id x = forms.symbol(1, "x"), y = forms.symbol(2, "y");
  const canonical::Id m = max_min_chain(forms, x, y, kDepth);
  EXPECT_TRUE(algebra::holds(P::Total, forms, m));
  EXPECT_FALSE(algebra::holds(P::Positive, forms, m)) << "x may be negative";

  // The same chain over a value defined on part of the reals only: not total, and the answer
  // must come from the bottom of the chain, 10^4 atoms down.
  const canonical::Id s =
      max_min_chain(forms, forms.apply("sqrt", std::span<const canonical::Id>(&x, 1)), y, kDepth);
  EXPECT_FALSE(algebra::holds(P::Total, forms, s));
  EXPECT_FALSE(algebra::holds(P::Nonnegative, forms, s));
}

// A chain of selects on the running value (if (v > m) m = v), the shape nvcc gives an
// online softmax's update: the condition and both arms share the value below.
TEST_F(Predicates, DeepSelectChainWithAMemoThatOutlivesTheCall) {
  constexpr int kDepth = 10'000;
  const canonical::Id y = forms.symbol(2, "y"), z = forms.symbol(3, "z");
  canonical::Id m = forms.symbol(1, "x");
  for (int i = 0; i < kDepth; ++i) {
    const canonical::Id v = forms.add(forms.mul(y, m), z);
    // v > m then v < m: the selects are a maximum, then a minimum (not flattened together).
    const auto cmp =
        i % 2 == 0 ? canonical::CanonicalForms::Cmp::Gt : canonical::CanonicalForms::Cmp::Lt;
    m = forms.select(forms.compare(cmp, v, m), v, m);
  }
  TotalityMemo memo;
  EXPECT_TRUE(algebra::holds(P::Total, forms, m, memo));
  // Asked again, with the memo: the answer is remembered, and agrees with a fresh walk.
  EXPECT_TRUE(algebra::holds(P::Total, forms, m, memo));
  EXPECT_TRUE(algebra::holds(P::Total, forms, m));
  // A quotient by the chain is not total (the chain may be zero), memo or not.
  const canonical::Id q = forms.div(y, m);
  EXPECT_FALSE(algebra::holds(P::Total, forms, q, memo));
  EXPECT_FALSE(algebra::holds(P::Total, forms, q));
}

} // namespace
} // namespace volta::algebra
