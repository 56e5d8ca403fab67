// The canonical-form e-class analysis on e-graphs of the ML language: classes whose forms
// coincide are merged (the exp-polynomial class decided on insertion), constants get their node,
// undefined values are never merged, a class keeps its lighter form; the canonical-term applier
// and the explanation step verifier.
#include <gtest/gtest.h>

#include "egraph/egraph.hpp"
#include "egraph/explain.hpp"
#include "egraph/explain_check.hpp"
#include "egraph/extract.hpp"
#include "egraph/runner.hpp"
#include "egraph/sexpr.hpp"
#include "rules/algebra/canonical_analysis.hpp"
#include "rules/appliers.hpp"
#include "rules/rule_library.hpp"

namespace volta::rules {
namespace {

using egraph::Id;

// The shipped rules, built once; e-graphs that run them use copies of their language (the
// patterns' constants are interned there).
const RuleLibrary& shipped() {
  static const RuleLibrary lib = RuleLibrary::shipped();
  return lib;
}

class Analysis : public ::testing::Test {
protected:
  explicit Analysis(bool explanations = false)
      : g(ml.lang, egraph::EGraphOptions{.explanations = explanations}),
        a(g.add_analysis<algebra::CanonicalFormAnalysis>(ml, forms)) {}
  Id add(const char* s) {
    const Id id = g.add_expr(s);
    g.rebuild();
    return id;
  }
  bool same(const char* x, const char* y) {
    const Id i = add(x), j = add(y);
    g.rebuild();
    return g.is_equal(i, j);
  }
  algebra::MlLanguage ml = shipped().ml();
  canonical::CanonicalForms forms;
  egraph::EGraph g;
  algebra::CanonicalFormAnalysis& a;
};

TEST_F(Analysis, EqualFormsShareAClassOnInsertion) {
  EXPECT_TRUE(same("(* x (+ y z))", "(+ (* x y) (* z x))"));
  EXPECT_TRUE(same("(* (exp a) (exp b))", "(exp (+ b a))"));
  EXPECT_TRUE(same("(/ (* l (exp (+ m (neg n))) (/ o l)) 1)", "(* o (exp (+ m (neg n))))"));
  EXPECT_TRUE(same("(ex2 x)", "(exp (* x ln2))"));
  EXPECT_TRUE(same("(rsqrt x)", "(/ 1 (sqrt x))"));
  EXPECT_FALSE(same("(exp (* a b))", "(* (exp a) (exp b))"));
  EXPECT_FALSE(same("(+ x y)", "(+ x z)"));
  EXPECT_GT(a.merges(), 0u);
}

TEST_F(Analysis, ConstantsGetTheirNodeSoPatternsMatchThem) {
  const Id zero_sum = add("(+ x (neg x))");
  bool has_zero = false;
  for (Id n : g.class_nodes(zero_sum))
    has_zero |= g.node(n).op == ml.num && ml.lang.rational(g.node(n).payload) == 0;
  EXPECT_TRUE(has_zero);
  EXPECT_TRUE(same("(lt 2 3)", "1"));
  EXPECT_TRUE(same("(select (le 4 3) x y)", "y"));
}

TEST_F(Analysis, UndefinedValuesAreNeverMerged) {
  // Two opaque leaves (say, two uninitialized values) have undefined forms with the same reason:
  // they must stay apart, as must inf - inf and 0 * inf.
  const Id u1 = g.add_leaf(ml.opaque, 1), u2 = g.add_leaf(ml.opaque, 2);
  g.rebuild();
  EXPECT_FALSE(g.is_equal(u1, u2));
  EXPECT_FALSE(a.is_defined(g, u1));
  EXPECT_FALSE(same("(+ inf (neg inf))", "(+ inf (neg inf) 0)") &&
               !g.is_equal(add("(+ inf (neg inf))"), add("(* 0 inf)")))
      << "both undefined: equal only if structurally the same node";
  EXPECT_FALSE(g.is_equal(add("(+ inf (neg inf))"), add("(* 0 inf)")));
  EXPECT_TRUE(same("(max x -inf)", "x"));
}

TEST_F(Analysis, FormsAreCreationFormsAndRulesSeeMergesBelow) {
  // A rule merges sqrt(x*x)*sqrt(x*x) with x*x (x*x >= 0). The parent's form stays the form of
  // the term it was created with (so every canonical-form step can be replayed from terms);
  // congruence and the rule add-neg-self then take it to 0.
  const Id sq = add("(* (sqrt (* x x)) (sqrt (* x x)))");
  const Id parent = add("(+ (* (sqrt (* x x)) (sqrt (* x x))) (neg (* x x)))");
  const Id zero = add("0");
  g.merge(sq, add("(* x x)"));
  g.rebuild();
  EXPECT_FALSE(g.is_equal(parent, zero));
  const RuleLibrary& lib = shipped();
  egraph::RunnerOptions o;
  o.focus = {parent, zero};
  egraph::Runner(g, o).run(lib.rewrites());
  EXPECT_TRUE(g.is_equal(parent, zero));
  EXPECT_EQ(a.origin(g, parent) == egraph::kNoId, false);
}

TEST_F(Analysis, CanonicalTermApplierBuildsTheNormalForm) {
  auto registry = ml_appliers(ml);
  const egraph::ApplierFn* fn = registry.applier("canonical-term");
  ASSERT_NE(fn, nullptr);
  a.set_merge_equal_forms(false);
  const Id x = add("(* (+ a b) (+ a (neg b)))");
  const egraph::Subst empty(g, egraph::VarTable{}, {});
  const auto built = (*fn)(g, x, empty);
  ASSERT_TRUE(built.has_value());
  g.rebuild();
  EXPECT_FALSE(g.is_equal(x, *built)) << "merging equal forms is off";
  EXPECT_TRUE(a.forms().equal(a.form(g, x), a.form(g, *built)));
  // a*a - b*b: the expanded numerator, as a sum of monomials.
  egraph::Extractor ex(g, egraph::ast_size());
  const std::string text = egraph::to_sexpr(ex.extract(*built), ml.lang);
  EXPECT_EQ(text.find("(+ a b)"), std::string::npos) << text;
}

TEST(CanonicalFormVerifier, ReplaysStepsOnTerms) {
  algebra::MlLanguage ml = algebra::make_ml_language();
  const auto verify = canonical_form_verifier(ml);
  auto tree = [&](const char* s) {
    return egraph::to_tree(egraph::parse_term_or_throw(s, ml.lang));
  };
  EXPECT_TRUE(verify(ml.lang, tree("(* x (+ y 1))"), tree("(+ x (* x y))")));
  EXPECT_TRUE(verify(ml.lang, tree("(/ (exp a) (+ (exp a) (exp b)))"),
                     tree("(/ 1 (+ 1 (exp (+ b (neg a)))))")));
  EXPECT_FALSE(verify(ml.lang, tree("(* x y)"), tree("(+ x y)")));
  EXPECT_FALSE(verify(ml.lang, tree("(+ inf (neg inf))"), tree("(+ inf (neg inf))")))
      << "undefined on both sides";
}

class ExplainedAnalysis : public Analysis {
protected:
  ExplainedAnalysis() : Analysis(true) {}
};

TEST_F(ExplainedAnalysis, RuleAndFormStepsAreExplainedAndReplayed) {
  const RuleLibrary& lib = shipped();
  const Id lhs = add("(+ (max (+ c a) (+ c b)) (* 2 x))");
  const Id rhs = add("(+ c (max a b) (* x 2))");
  ASSERT_FALSE(g.is_equal(lhs, rhs));
  egraph::RunnerOptions o;
  o.focus = {lhs, rhs};
  egraph::Runner(g, o).run(lib.rewrites());
  ASSERT_TRUE(g.is_equal(lhs, rhs));
  const auto e = egraph::explain_ids(g, lhs, rhs);
  ASSERT_TRUE(e.has_value());
  egraph::ExplanationChecker checker(ml.lang);
  checker.add_rules(lib.rewrites());
  checker.add_verifier(std::string(algebra::CanonicalFormAnalysis::kReason),
                       canonical_form_verifier(ml));
  const auto r = checker.check(*e);
  EXPECT_TRUE(r.ok) << r.message << "\n" << e->to_string(ml.lang);
  EXPECT_EQ(r.trusted, 0u);
  bool max_shift = false;
  for (const auto& s : e->steps)
    max_shift |= s.rule == "max-shift";
  EXPECT_TRUE(max_shift) << e->to_string(ml.lang);
}

} // namespace
} // namespace volta::rules
