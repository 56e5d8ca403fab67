// The core: hashconsing, adding terms, merging, rebuilding, lookups, invariants.

#include "test_util.hpp"

namespace volta::egraph {
namespace {

using testing::expect_invariants;
using testing::term;

TEST(EGraphCore, HashconsSharesIdenticalNodes) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id x = g.add_symbol("x");
  const Id y = g.add_symbol("y");
  EXPECT_EQ(g.add_symbol("x"), x);
  const Id f1 = g.add(a.sub, {x, y});
  const Id f2 = g.add(a.sub, {x, y});
  EXPECT_EQ(f1, f2);
  EXPECT_NE(g.add(a.sub, {y, x}), f1); // '-' is not commutative
  EXPECT_EQ(g.num_nodes(), 4u);
  EXPECT_EQ(g.num_classes(), 4u);
  g.rebuild();
  expect_invariants(g);
}

TEST(EGraphCore, AddTermSharesSubterms) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id t1 = g.add_expr("(- (exp x) (exp x))");
  EXPECT_EQ(g.num_nodes(), 3u); // x, (exp x), (- e e)
  EXPECT_EQ(g.add_expr("(exp x)"), *g.lookup_term(term(a.lang, "(exp x)")));
  EXPECT_EQ(g.lookup_term(term(a.lang, "(- (exp x) (exp x))")), t1);
  EXPECT_FALSE(g.lookup_term(term(a.lang, "(exp y)")).has_value());
  const std::vector<Term::Index> roots = {0, 1, 2};
  const Term t = term(a.lang, "(- (exp x) x)");
  const auto ids = g.add_term(t, roots);
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids[0], g.add_symbol("x"));
  EXPECT_EQ(ids[1], g.add_expr("(exp x)"));
}

TEST(EGraphCore, MergeAndRebuild) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id x = g.add_symbol("x"), y = g.add_symbol("y");
  EXPECT_TRUE(g.merge(x, y));
  EXPECT_FALSE(g.merge(y, x));
  EXPECT_TRUE(g.is_equal(x, y));
  EXPECT_EQ(g.num_classes(), 1u);
  EXPECT_FALSE(g.is_clean());
  g.rebuild();
  EXPECT_TRUE(g.is_clean());
  expect_invariants(g);
  EXPECT_EQ(g.class_ids().size(), 1u);
  EXPECT_EQ(g.class_nodes(x).size(), 2u);
}

TEST(EGraphCore, RejectsBadNodes) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id x = g.add_symbol("x");
  EXPECT_THROW(g.add(a.sub, {x}), std::invalid_argument);
  EXPECT_THROW(g.add(a.sub, {x, 999}), std::invalid_argument);
  EXPECT_THROW(g.merge(x, 999), std::invalid_argument);
  EXPECT_THROW(g.add_expr("(- x"), std::invalid_argument);
  EXPECT_THROW(g.add_analysis<ConstantFolding>(a.lang, a.num), std::logic_error);
}

TEST(EGraphCore, ClearKeepsAnalysesAndReserveIsHarmless) {
  Arith a = make_arith();
  EGraph g(a.lang);
  auto& cf = add_arith_constant_folding(g, a);
  g.reserve(100, 200);
  g.add_expr("(+ 1 2 x)");
  g.clear();
  EXPECT_EQ(g.num_ids(), 0u);
  EXPECT_EQ(g.num_classes(), 0u);
  const Id e = g.add_expr("(* 2 3)");
  EXPECT_EQ(*cf.value(g, e), mpq_class(6));
  g.rebuild();
  expect_invariants(g);
  for (int i = 0; i < 50; ++i)
    g.reserve(1, 1); // repeated small reservations stay cheap
  const Term t = term(a.lang, "(exp x)");
  const Term::Index bad[] = {7};
  EXPECT_THROW(g.add_term(t, bad), std::out_of_range);
}

TEST(EGraphCore, OneChildAcNodeIsItsChild) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id x = g.add_symbol("x");
  EXPECT_EQ(g.add(a.add, {x}), x);
  EXPECT_EQ(g.add_expr("(* (+ x))"), x);
  EXPECT_EQ(g.num_nodes(), 1u);
}

TEST(EGraphCore, ApproxBytesGrows) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const auto before = g.approx_bytes();
  for (int i = 0; i < 1000; ++i)
    g.add_symbol(testing::cat("s", i));
  EXPECT_GT(g.approx_bytes(), before + 1000 * 24);
}

TEST(EGraphCore, DumpIsCanonical) {
  Arith a = make_arith();
  EGraph g(a.lang);
  g.add_expr("(+ x (exp 2))");
  g.rebuild();
  EXPECT_EQ(g.dump(), "0: (sym:x)\n1: (num:2)\n2: (exp 1)\n3: (+ 0 2)\n");
}

} // namespace
} // namespace volta::egraph

namespace volta::egraph::testing {
namespace {

TEST(EGraphCore, InvariantsAreCheckedAfterEveryRebuildInTheTests) {
  // tests/support/invariant_checks.cpp: in release builds too.
  EXPECT_TRUE(EGraph::invariant_checks());
}

} // namespace
} // namespace volta::egraph::testing
