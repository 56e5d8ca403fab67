// Congruence closure edge cases.

#include "test_util.hpp"

namespace volta::egraph {
namespace {

using testing::expect_invariants;

struct FLang {
  Language lang;
  OpId sym, f, g2;
  FLang() {
    sym = lang.add_op("sym", 0, false, PayloadKind::Symbol);
    lang.set_symbol_op(sym);
    f = lang.add_op("f", 1);
    g2 = lang.add_op("g", 2);
  }
};

TEST(Congruence, EqualArgumentsMakeEqualApplications) {
  FLang L;
  EGraph g(L.lang);
  const Id fa = g.add_expr("(f a)"), fb = g.add_expr("(f b)");
  EXPECT_FALSE(g.is_equal(fa, fb));
  g.merge(g.add_expr("a"), g.add_expr("b"));
  EXPECT_FALSE(g.is_equal(fa, fb)); // deferred: not yet repaired
  g.rebuild();
  EXPECT_TRUE(g.is_equal(fa, fb));
  EXPECT_EQ(g.num_nodes(), 3u); // a, b, one (f a|b): the duplicate was dropped
  expect_invariants(g);
}

TEST(Congruence, DeepChainCollapsesInOneRebuild) {
  FLang L;
  EGraph g(L.lang);
  const int depth = 500;
  Id x = g.add_expr("a"), y = g.add_expr("b");
  std::vector<Id> xs{x}, ys{y};
  for (int i = 0; i < depth; ++i) {
    xs.push_back(g.add(L.f, {xs.back()}));
    ys.push_back(g.add(L.f, {ys.back()}));
  }
  g.merge(x, y);
  g.rebuild();
  for (int i = 0; i <= depth; ++i)
    ASSERT_TRUE(g.is_equal(xs[i], ys[i])) << i;
  EXPECT_EQ(g.num_classes(), static_cast<std::size_t>(depth + 1));
  expect_invariants(g);
}

TEST(Congruence, SelfLoopsCollapseIteratedApplications) {
  // a = f(a) makes f(f(f(a))) = a; the class of a then holds the cyclic node f(a).
  FLang L;
  EGraph g(L.lang);
  const Id a = g.add_expr("a");
  const Id fa = g.add_expr("(f a)");
  const Id fffa = g.add_expr("(f (f (f a)))");
  g.merge(a, fa);
  g.rebuild();
  EXPECT_TRUE(g.is_equal(a, fffa));
  EXPECT_EQ(g.num_classes(), 1u);
  EXPECT_EQ(g.num_nodes(), 2u); // a and f(<self>)
  expect_invariants(g);
  // Adding more applications afterwards finds the cycle immediately.
  EXPECT_TRUE(g.is_equal(g.add_expr("(f (f a))"), a));
}

TEST(Congruence, TwoArgumentCongruenceNeedsBothArguments) {
  FLang L;
  EGraph g(L.lang);
  const Id gab = g.add_expr("(g a b)"), gcd = g.add_expr("(g c d)");
  g.merge(g.add_expr("a"), g.add_expr("c"));
  g.rebuild();
  EXPECT_FALSE(g.is_equal(gab, gcd));
  g.merge(g.add_expr("d"), g.add_expr("b"));
  g.rebuild();
  EXPECT_TRUE(g.is_equal(gab, gcd));
  expect_invariants(g);
}

TEST(Congruence, CascadeThroughManyParents) {
  // Merging leaves pairwise triggers a cascade: g(x_i, x_i) for all i become one class.
  FLang L;
  EGraph g(L.lang);
  std::vector<Id> leaves, apps;
  for (int i = 0; i < 200; ++i) {
    leaves.push_back(g.add_symbol(testing::cat("x", i)));
    apps.push_back(g.add(L.g2, {leaves.back(), leaves.back()}));
    apps.push_back(g.add(L.f, {apps.back()}));
  }
  for (int i = 1; i < 200; ++i)
    g.merge(leaves[0], leaves[i]);
  g.rebuild();
  EXPECT_EQ(g.num_classes(), 3u);
  for (int i = 0; i < 200; ++i) {
    EXPECT_TRUE(g.is_equal(apps[2 * i], apps[0]));
    EXPECT_TRUE(g.is_equal(apps[2 * i + 1], apps[1]));
  }
  expect_invariants(g);
}

TEST(Congruence, AcNodesAreCongruentAsMultisets) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id s1 = g.add_expr("(+ x y z)"), s2 = g.add_expr("(+ z w x)");
  g.merge(g.add_expr("y"), g.add_expr("w"));
  g.rebuild();
  EXPECT_TRUE(g.is_equal(s1, s2));
  // Multiplicities: x + y = x + x once y = x.
  const Id d1 = g.add_expr("(+ x x)"), d2 = g.add_expr("(+ x q)");
  g.merge(g.add_expr("q"), g.add_expr("x"));
  g.rebuild();
  EXPECT_TRUE(g.is_equal(d1, d2));
  EXPECT_FALSE(g.is_equal(d1, g.add_expr("x")));
  expect_invariants(g);
}

} // namespace
} // namespace volta::egraph
