// Rewrites: instantiation (flattening, rest splicing), conditions, C++ appliers and the registry.

#include "egraph/applier_registry.hpp"
#include "egraph/runner.hpp"
#include "test_util.hpp"

namespace volta::egraph {
namespace {

using testing::expect_invariants;
using testing::term;

TEST(Rewrite, RightHandSidesAreFlattenedAndRestsSpliced) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id s = g.add_expr("(+ (* 2 x) y z)");
  g.rebuild();
  // (+ (* 2 ?x) ?r...) => (+ ?x (+ ?x ?r...)): the nested + and the rest are spliced.
  const Rewrite r = Rewrite::parse(a.lang, "double", "(+ (* 2 ?x) ?r...)", "(+ ?x (+ ?x ?r...))");
  const Matches m = search(g, r.lhs);
  ASSERT_EQ(m.size(), 1u);
  const Id out = instantiate(g, *r.rhs, m.subst(g, r.lhs.vars(), 0));
  EXPECT_EQ(out, *g.lookup_term(term(a.lang, "(+ x x y z)")));
  EXPECT_EQ(g.node(g.class_nodes(out)[0]).children.size(), 4u);
  // A rest variable outside its operator becomes a node of that operator.
  const Rewrite r2 = Rewrite::parse(a.lang, "wrap", "(+ (* 2 ?x) ?r...)", "(exp ?r...)");
  const Id e = instantiate(g, *r2.rhs, search(g, r2.lhs).subst(g, r2.lhs.vars(), 0));
  EXPECT_EQ(e, *g.lookup_term(term(a.lang, "(exp (+ y z))")));
  // The exact left-hand side is the matched node's class.
  EXPECT_TRUE(g.is_equal(instantiate_exact(g, r.lhs, m.subst(g, r.lhs.vars(), 0)), s));
}

TEST(Rewrite, ConditionsGateApplication) {
  Arith a = make_arith();
  EGraph g(a.lang);
  auto& cf = add_arith_constant_folding(g, a);
  const Id d1 = g.add_expr("(/ x x)");
  const Id d0 = g.add_expr("(/ (- y y) (- y y))");
  // x/x = 1 only when x is known to be non-zero; here: known constant and not 0.
  std::vector<Rewrite> rules;
  rules.push_back(Rewrite::parse(a.lang, "div-self", "(/ ?a ?a)", "1",
                                 [&cf](const EGraph& eg, Id, const Subst& s) {
                                   auto v = cf.value(eg, s.get("a"));
                                   return v && *v != 0;
                                 }));
  rules.push_back(Rewrite::parse(a.lang, "sub-self", "(- ?a ?a)", "0"));
  Runner(g).run(rules);
  EXPECT_FALSE(g.is_equal(d1, g.add_expr("1"))); // x unknown: not applied
  EXPECT_FALSE(g.is_equal(d0, g.add_expr("1"))); // 0/0: never 1
  g.merge(g.add_expr("x"), g.add_expr("5"));
  Runner(g).run(rules);
  EXPECT_TRUE(g.is_equal(d1, g.add_expr("1")));
  expect_invariants(g);
}

TEST(Rewrite, CppAppliersFromTheRegistry) {
  Arith a = make_arith();
  ApplierRegistry reg;
  // Collects like terms: (+ ?x ?x ?r...) => (+ (* 2 ?x) ?r...), computed in C++.
  reg.add_applier("double-twice", [&a](EGraph& g, Id, const Subst& s) -> std::optional<Id> {
    const Id two = g.add_constant(2);
    std::vector<Id> kids = s.rest("r");
    kids.push_back(g.add(a.mul, {two, s.get("x")}));
    return g.add(a.add, kids);
  });
  reg.add_condition("always", [](const EGraph&, Id, const Subst&) { return true; });
  EXPECT_THROW(reg.add_applier("double-twice",
                               [](EGraph&, Id, const Subst&) { return std::optional<Id>{}; }),
               std::invalid_argument);
  EXPECT_EQ(reg.applier_names(), std::vector<std::string>{"double-twice"});
  EXPECT_NE(reg.condition("always"), nullptr);
  EXPECT_EQ(reg.applier("nope"), nullptr);
  EXPECT_THROW(reg.make_rule(a.lang, "r", "(+ ?x ?x)", "nope"), std::invalid_argument);

  EGraph g(a.lang);
  const Id s = g.add_expr("(+ p q p)");
  std::vector<Rewrite> rules;
  rules.push_back(reg.make_rule(a.lang, "collect", "(+ ?x ?x ?r...)", "double-twice",
                                *reg.condition("always")));
  EXPECT_EQ(rules[0].applier_name, "double-twice");
  const RunReport rep = Runner(g).run(rules);
  EXPECT_EQ(rep.stop_reason, StopReason::Saturated);
  EXPECT_TRUE(g.is_equal(s, g.add_expr("(+ q (* 2 p))")));
}

TEST(Rewrite, BidirectionalRules) {
  Arith a = make_arith();
  auto rules = Rewrite::parse_bidirectional(a.lang, "exp-neg", "(exp (neg ?x))", "(/ 1 (exp ?x))");
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[1].name, "exp-neg-rev");
  EGraph g(a.lang);
  const Id l = g.add_expr("(exp (neg y))"), r = g.add_expr("(/ 1 (exp z))");
  g.merge(g.add_expr("y"), g.add_expr("z"));
  Runner(g).run(rules);
  EXPECT_TRUE(g.is_equal(l, r));
}

} // namespace
} // namespace volta::egraph
