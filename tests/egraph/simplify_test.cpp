// Equality saturation on small algebras: arithmetic with constant folding, boolean algebra.

#include "egraph/extract.hpp"
#include "egraph/runner.hpp"
#include "test_util.hpp"

namespace volta::egraph {
namespace {

using testing::arith_rules;
using testing::expect_invariants;

TEST(Simplify, ArithmeticWithConstantFolding) {
  Arith a = make_arith();
  EGraph g(a.lang);
  add_arith_constant_folding(g, a);
  const Id e = g.add_expr("(+ (* 2 3) x (- x x) (* 0 y))");
  const Id f = g.add_expr("(* (+ 1/2 1/2) (- (+ a b) b))");
  const Id h = g.add_expr("(* (exp (neg u)) (exp u))");
  const auto rules = arith_rules(a.lang);
  RunnerOptions opts;
  opts.limits.iterations = 12;
  const RunReport rep = Runner(g, opts).run(rules);
  EXPECT_TRUE(g.is_equal(e, g.add_expr("(+ 6 x)"))) << rep.summary();
  EXPECT_TRUE(g.is_equal(f, g.add_expr("a"))) << rep.summary();
  EXPECT_TRUE(g.is_equal(h, g.add_expr("(exp 0)")));
  EXPECT_TRUE(g.is_equal(h, g.add_expr("1")));
  g.rebuild();
  expect_invariants(g);
  Extractor ex(g, ast_size());
  EXPECT_EQ(*ex.cost(e), 3.0);
  EXPECT_EQ(g.lookup_term(ex.extract(e)), g.find(e));
  EXPECT_EQ(to_sexpr(ex.extract(f), a.lang), "a");
  EXPECT_EQ(to_sexpr(ex.extract(h), a.lang), "1");
}

TEST(Simplify, BooleanAlgebra) {
  Language l;
  const OpId var = l.add_op("var", 0, false, PayloadKind::Symbol);
  l.set_symbol_op(var);
  l.add_op("and", kVariadic, true);
  l.add_op("or", kVariadic, true);
  l.add_op("not", 1);
  l.add_op("true", 0);
  l.add_op("false", 0);
  std::vector<Rewrite> rules;
  auto add = [&](const char* name, const char* lhs, const char* rhs) {
    rules.push_back(Rewrite::parse(l, name, lhs, rhs));
  };
  add("not-not", "(not (not ?x))", "?x");
  add("de-morgan-and", "(not (and ?a ?r...))", "(or (not ?a) (not (and ?r...)))");
  add("de-morgan-or", "(not (or ?a ?r...))", "(and (not ?a) (not (or ?r...)))");
  add("and-true", "(and true ?r...)", "(and ?r...)");
  add("or-false", "(or false ?r...)", "(or ?r...)");
  add("and-false", "(and false ?r...)", "false");
  add("or-true", "(or true ?r...)", "true");
  add("excluded-middle", "(or ?a (not ?a) ?r...)", "true");
  add("excluded-middle-2", "(or ?a (not ?a))", "true");
  add("contradiction", "(and ?a (not ?a))", "false");
  add("idempotent-and", "(and ?a ?a ?r...)", "(and ?a ?r...)");
  add("absorb", "(or ?a (and ?a ?b))", "?a");
  add("not-true", "(not true)", "false");
  add("not-false", "(not false)", "true");

  EGraph g(l);
  const Id dm = g.add_expr("(not (and p (not q)))");
  const Id em = g.add_expr("(or (and p q) (not (and q p)))");
  const Id ab = g.add_expr("(or p (and p q))");
  const Id id = g.add_expr("(and p p true r)");
  const Id ct = g.add_expr("(and (not (not s)) (not s))");
  RunnerOptions opts;
  opts.limits.iterations = 10;
  const RunReport rep = Runner(g, opts).run(rules);
  EXPECT_TRUE(g.is_equal(dm, g.add_expr("(or (not p) q)"))) << rep.summary();
  EXPECT_TRUE(g.is_equal(em, g.add_expr("true")));
  EXPECT_TRUE(g.is_equal(ab, g.add_expr("p")));
  EXPECT_TRUE(g.is_equal(id, g.add_expr("(and p r)")));
  EXPECT_TRUE(g.is_equal(ct, g.add_expr("false")));
  EXPECT_FALSE(g.is_equal(g.add_expr("p"), g.add_expr("q")));
  EXPECT_FALSE(g.is_equal(g.add_expr("true"), g.add_expr("false")));
  g.rebuild();
  expect_invariants(g);
}

} // namespace
} // namespace volta::egraph
