// Explanations: produced by the e-graph, replayed by the independent checker.

#include <random>

#include "egraph/explain.hpp"
#include "egraph/explain_check.hpp"
#include "egraph/extract.hpp"
#include "egraph/runner.hpp"
#include "test_util.hpp"

namespace volta::egraph {
namespace {

using testing::arith_rules;
using testing::expect_invariants;
using testing::term;

EGraphOptions with_explanations() {
  EGraphOptions o;
  o.explanations = true;
  return o;
}

struct FLang {
  Language lang;
  std::vector<Rewrite> rules;
  FLang() {
    lang.set_symbol_op(lang.add_op("sym", 0, false, PayloadKind::Symbol));
    for (const char* op : {"f", "g", "h", "k"})
      lang.add_op(op, 1);
    lang.add_op("pair", 2);
    rules.push_back(Rewrite::parse(lang, "f-to-g", "(f ?x)", "(g ?x)"));
    rules.push_back(Rewrite::parse(lang, "g-to-h", "(g ?x)", "(h ?x)"));
    rules.push_back(Rewrite::parse(lang, "swap", "(pair ?x ?y)", "(pair ?y ?x)"));
  }
};

// Explains a == b and replays the explanation; returns it for further checks.
Explanation explain_and_check(const EGraph& g, Language& lang, const std::string& a,
                              const std::string& b, const ExplanationChecker& checker,
                              std::size_t expect_trusted = 0) {
  const Term ta = term(lang, a), tb = term(lang, b);
  auto e = explain_equivalence(g, ta, tb);
  EXPECT_TRUE(e.has_value()) << a << " = " << b;
  if (!e)
    return {};
  const TreeTerm from = to_tree(ta), to = to_tree(tb);
  const CheckResult r = checker.check(*e, &from, &to);
  EXPECT_TRUE(r.ok) << r.message << "\n" << e->to_string(lang);
  EXPECT_EQ(r.trusted, expect_trusted) << e->to_string(lang);
  return *e;
}

TEST(Explain, RuleChain) {
  FLang L;
  EGraph g(L.lang, with_explanations());
  g.add_expr("(f a)");
  Runner(g).run(L.rules);
  ExplanationChecker checker(L.lang);
  checker.add_rules(L.rules);
  const Explanation e = explain_and_check(g, L.lang, "(f a)", "(h a)", checker);
  EXPECT_EQ(e.to_string(L.lang),
            "(f a)\n  => [f-to-g at root] (g a)\n  => [g-to-h at root] (h a)\n");
  // The reverse direction uses the rules backwards.
  const Explanation back = explain_and_check(g, L.lang, "(h a)", "(f a)", checker);
  ASSERT_EQ(back.steps.size(), 2u);
  EXPECT_FALSE(back.steps[0].forward);
  EXPECT_EQ(back.steps[0].rule, "g-to-h");
}

TEST(Explain, CongruenceUnfoldsIntoChildSteps) {
  FLang L;
  EGraph g(L.lang, with_explanations());
  g.add_expr("(k (pair (f a) b))");
  Runner(g).run(L.rules);
  g.add_expr("(k (pair b (h a)))"); // both terms must be in the e-graph to be explained
  g.rebuild();
  ExplanationChecker checker(L.lang);
  checker.add_rules(L.rules);
  const Explanation e =
      explain_and_check(g, L.lang, "(k (pair (f a) b))", "(k (pair b (h a)))", checker);
  ASSERT_FALSE(e.steps.empty());
  for (const auto& s : e.steps)
    EXPECT_GE(s.path.size(), 1u) << "every step is under k";
}

TEST(Explain, HandMergesAreNamedStepsAndDeepCongruence) {
  FLang L;
  EGraph g(L.lang, with_explanations());
  g.add_expr("(f (g (h a)))");
  g.add_expr("(f (g (h b)))");
  g.merge(g.add_expr("a"), g.add_expr("b"), "axiom-a-b");
  g.rebuild();
  ExplanationChecker checker(L.lang);
  const Explanation e =
      explain_and_check(g, L.lang, "(f (g (h a)))", "(f (g (h b)))", checker, /*trusted=*/1);
  ASSERT_EQ(e.steps.size(), 1u);
  EXPECT_EQ(e.steps[0].rule, "axiom-a-b");
  EXPECT_EQ(e.steps[0].path, (TermPath{0, 0, 0}));
  // A verifier makes the step checked instead of trusted.
  checker.add_verifier("axiom-a-b", [](const Language&, const TreeTerm& x, const TreeTerm& y) {
    return x.children.empty() && y.children.empty();
  });
  explain_and_check(g, L.lang, "(f (g (h a)))", "(f (g (h b)))", checker, 0);
}

TEST(Explain, AcInsertionAndReorderingAreAcNormalizeSteps) {
  Arith a = make_arith();
  EGraph g(a.lang, with_explanations());
  g.add_expr("(+ a (+ b c))");
  g.add_expr("(+ (+ c b) a)");
  g.rebuild();
  ExplanationChecker checker(a.lang);
  const Explanation e = explain_and_check(g, a.lang, "(+ a (+ b c))", "(+ (+ c b) a)", checker);
  for (const auto& s : e.steps)
    EXPECT_EQ(s.rule, "ac-normalize");
}

TEST(Explain, AcCongruenceWithPermutedChildren) {
  Arith a = make_arith();
  EGraph g(a.lang, with_explanations());
  std::vector<Rewrite> rules{Rewrite::parse(a.lang, "p-to-q", "(exp p)", "(exp q)")};
  g.add_expr("(+ x (exp p) y)");
  g.add_expr("(+ y x (exp q))");
  Runner(g).run(rules);
  ExplanationChecker checker(a.lang);
  checker.add_rules(rules);
  const Explanation e = explain_and_check(g, a.lang, "(+ x (exp p) y)", "(+ y x (exp q))", checker);
  bool used_rule = false;
  for (const auto& s : e.steps)
    used_rule |= s.rule == "p-to-q";
  EXPECT_TRUE(used_rule) << e.to_string(a.lang);
}

TEST(Explain, ConstantFoldingStepsAreGroundEvaluations) {
  Arith a = make_arith();
  EGraph g(a.lang, with_explanations());
  auto& cf = add_arith_constant_folding(g, a);
  g.add_expr("(+ (* 2 3) x)");
  g.add_expr("(+ x 6)");
  g.add_expr("(* (- y y) 5)");
  g.merge(g.add_expr("y"), g.add_expr("1/2"), "y-is-half");
  g.rebuild();
  ExplanationChecker checker(a.lang);
  checker.add_verifier("constant-fold", constant_fold_verifier(cf));
  explain_and_check(g, a.lang, "(+ (* 2 3) x)", "(+ x 6)", checker);
  // y = 1/2 is a hand merge (trusted), used once for each y.
  const Explanation e = explain_and_check(g, a.lang, "(* (- y y) 5)", "0", checker, 2);
  // A wrong fold is rejected by the verifier.
  Explanation bad = e;
  bool tampered = false;
  for (auto& s : bad.steps)
    if (s.rule == "constant-fold" && !tampered) {
      subterm(s.term, s.path) = to_tree(term(a.lang, "7"));
      tampered = true;
    }
  ASSERT_TRUE(tampered);
  EXPECT_FALSE(checker.check(bad).ok);
}

TEST(Explain, ArithmeticSimplificationReplays) {
  Arith a = make_arith();
  EGraph g(a.lang, with_explanations());
  auto& cf = add_arith_constant_folding(g, a);
  const auto rules = arith_rules(a.lang);
  g.add_expr("(- (+ a b) b)");
  g.add_expr("(* (exp (neg u)) (exp u))");
  g.add_expr("(+ (* 2 3) x (- x x) (* 0 y))");
  RunnerOptions opts;
  opts.limits.iterations = 10;
  Runner(g, opts).run(rules);
  ExplanationChecker checker(a.lang);
  checker.add_rules(rules);
  checker.add_verifier("constant-fold", constant_fold_verifier(cf));
  explain_and_check(g, a.lang, "(- (+ a b) b)", "a", checker);
  explain_and_check(g, a.lang, "(* (exp (neg u)) (exp u))", "1", checker);
  g.add_expr("(+ 6 x)");
  explain_and_check(g, a.lang, "(+ (* 2 3) x (- x x) (* 0 y))", "(+ 6 x)", checker);
}

TEST(Explain, CheckerRejectsTamperedExplanations) {
  FLang L;
  EGraph g(L.lang, with_explanations());
  g.add_expr("(k (f a))");
  Runner(g).run(L.rules);
  g.add_expr("(k (h a))");
  g.rebuild();
  ExplanationChecker checker(L.lang);
  checker.add_rules(L.rules);
  const Term ta = term(L.lang, "(k (f a))"), tb = term(L.lang, "(k (h a))");
  const auto found = explain_equivalence(g, ta, tb);
  ASSERT_TRUE(found.has_value());
  const Explanation& e = *found;
  ASSERT_EQ(e.steps.size(), 2u);
  ASSERT_TRUE(checker.check(e).ok);
  {
    Explanation bad = e; // a rule that does not apply
    bad.steps[0].rule = "g-to-h";
    EXPECT_FALSE(checker.check(bad).ok);
  }
  {
    Explanation bad = e; // a change outside the rewritten position
    bad.steps[0].term = to_tree(term(L.lang, "(f (g a))"));
    const CheckResult r = checker.check(bad);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.step, 0u);
  }
  {
    Explanation bad = e; // wrong direction
    bad.steps[1].forward = false;
    EXPECT_FALSE(checker.check(bad).ok);
  }
  {
    Explanation bad = e; // a bad path
    bad.steps[0].path = {3};
    EXPECT_FALSE(checker.check(bad).ok);
  }
  const TreeTerm other = to_tree(term(L.lang, "(k (g b))"));
  EXPECT_FALSE(checker.check(e, &other).ok);
  EXPECT_FALSE(checker.check(e, nullptr, &other).ok);
}

TEST(Explain, CppApplierStepsUseTheRegistryVerifier) {
  Arith a = make_arith();
  ApplierRegistry reg;
  // (exp (neg ?x)) => (/ 1 (exp ?x)) computed in C++, with a term-level verifier.
  reg.add_applier(
      "exp-neg",
      [&a](EGraph& g, Id, const Subst& s) -> std::optional<Id> {
        return g.add(a.div, {g.add_constant(1), g.add(a.exp, {s.get("x")})});
      },
      [&a](const Language&, const TreeTerm& from, const TreeTerm& to) {
        return from.op == a.exp && to.op == a.div && to.children.size() == 2 &&
               to.children[1].op == a.exp &&
               to.children[1].children[0] == from.children[0].children[0];
      });
  std::vector<Rewrite> rules{reg.make_rule(a.lang, "exp-neg-rule", "(exp (neg ?x))", "exp-neg")};
  EGraph g(a.lang, with_explanations());
  g.add_expr("(exp (neg z))");
  Runner(g).run(rules);
  ExplanationChecker checker(a.lang);
  checker.add_rules(rules);
  g.add_expr("(/ 1 (exp z))");
  EXPECT_EQ(explain_and_check(g, a.lang, "(exp (neg z))", "(/ 1 (exp z))", checker, 1).steps.size(),
            1u);
  checker.set_registry(&reg);
  explain_and_check(g, a.lang, "(exp (neg z))", "(/ 1 (exp z))", checker, 0);
}

TEST(Explain, OffByDefaultAndNothingAllocated) {
  Arith a = make_arith();
  EGraph g(a.lang);
  EXPECT_FALSE(g.explanations_enabled());
  EXPECT_EQ(g.proof_forest(), nullptr);
  g.add_expr("(+ a b)");
  EXPECT_FALSE(explain_equivalence(g, term(a.lang, "(+ a b)"), term(a.lang, "(+ b a)")));
  // Not-equal or unknown terms give no explanation either.
  EGraph h(a.lang, with_explanations());
  h.add_expr("(+ a b)");
  h.add_expr("c");
  EXPECT_FALSE(explain_equivalence(h, term(a.lang, "(+ a b)"), term(a.lang, "c")));
  EXPECT_FALSE(explain_equivalence(h, term(a.lang, "(+ a b)"), term(a.lang, "d")));
}

TEST(Explain, RandomSaturationsReplay) {
  // Random small arithmetic terms, saturated with the arithmetic rules; every pair of roots
  // that ends up equal must have an explanation that the checker accepts without trust.
  Arith a = make_arith();
  std::mt19937 rng(11);
  const char* leaves[] = {"a", "b", "0", "1", "2"};
  std::function<std::string(int)> gen = [&](int depth) -> std::string {
    if (depth == 0 || rng() % 3 == 0)
      return leaves[rng() % 5];
    const char* ops[] = {"(+ ", "(* ", "(- ", "(neg "};
    const char* op = ops[rng() % 4];
    const std::string x = gen(depth - 1);
    if (op[1] == 'n')
      return testing::cat(op, x, ")");
    const std::string y = gen(depth - 1);
    return testing::cat(op, x, " ", y, ")");
  };
  std::size_t checked = 0, steps = 0;
  for (int trial = 0; trial < 4; ++trial) {
    EGraph g(a.lang, with_explanations());
    auto& cf = add_arith_constant_folding(g, a);
    std::vector<std::string> roots;
    for (int i = 0; i < 6; ++i) {
      roots.push_back(gen(3));
      g.add_expr(roots.back());
    }
    const auto rules = arith_rules(a.lang);
    RunnerOptions opts;
    opts.limits.iterations = 6;
    opts.limits.nodes = 3000;
    Runner(g, opts).run(rules);
    expect_invariants(g);
    ExplanationChecker checker(a.lang);
    checker.add_rules(rules);
    checker.add_verifier("constant-fold", constant_fold_verifier(cf));
    for (std::size_t i = 0; i < roots.size(); ++i)
      for (std::size_t j = i + 1; j < roots.size(); ++j)
        if (g.is_equal(*g.lookup_term(term(a.lang, roots[i])),
                       *g.lookup_term(term(a.lang, roots[j])))) {
          explain_and_check(g, a.lang, roots[i], roots[j], checker);
          ++checked;
        }
    // Every root against its simplest form.
    std::vector<std::string> simplest;
    {
      Extractor ex(g, ast_size());
      for (const auto& r : roots)
        simplest.push_back(to_sexpr(ex.extract(*g.lookup_term(term(a.lang, r))), a.lang));
    }
    for (const auto& s : simplest)
      g.add_expr(s);
    g.rebuild();
    for (std::size_t i = 0; i < roots.size(); ++i) {
      const Explanation e = explain_and_check(g, a.lang, roots[i], simplest[i], checker);
      steps += e.steps.size();
      ++checked;
    }
  }
  EXPECT_GE(checked, 24u);
  EXPECT_GT(steps, 24u);
}

} // namespace
} // namespace volta::egraph
