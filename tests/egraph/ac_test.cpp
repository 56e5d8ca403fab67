// n-ary associative-commutative operators: flattening on insertion, sorted multisets, re-sorting
// on rebuild, and the comparison with binary AC rewriting.

#include <algorithm>
#include <random>

#include "egraph/runner.hpp"
#include "test_util.hpp"

namespace volta::egraph {
namespace {

using testing::expect_invariants;
using testing::term;

// A random binary bracketing of `leaves` (Term indices), in the given order.
Term::Index random_tree(Term& t, OpId op, std::vector<Term::Index> leaves, std::mt19937& rng) {
  while (leaves.size() > 1) {
    const std::size_t i = rng() % (leaves.size() - 1);
    // Sometimes a wider node: n-ary groupings must land in the same class too.
    const std::size_t width = std::min<std::size_t>(2 + rng() % 3, leaves.size() - i);
    std::vector<Term::Index> kids(leaves.begin() + i, leaves.begin() + i + width);
    const auto node = t.add(op, kids);
    leaves.erase(leaves.begin() + i, leaves.begin() + i + width);
    leaves.insert(leaves.begin() + i, node);
  }
  return leaves.front();
}

// A term summing x0*y0 + ... in a random order and grouping.
Term random_sum(Arith& a, int n, std::mt19937& rng) {
  Term t;
  std::vector<Term::Index> prods;
  for (int i = 0; i < n; ++i) {
    const auto x = t.add_leaf(a.sym, a.lang.intern_symbol(testing::cat("A[", i, "]")));
    const auto y = t.add_leaf(a.sym, a.lang.intern_symbol(testing::cat("B[", i, "]")));
    prods.push_back(rng() % 2 ? t.add(a.mul, {x, y}) : t.add(a.mul, {y, x}));
  }
  std::shuffle(prods.begin(), prods.end(), rng);
  random_tree(t, a.add, prods, rng);
  return t;
}

TEST(NaryAc, BinaryAcRewritingMakes127ClassesNaryMakesOne) {
  // Binary +: commutativity and associativity saturate a 7-term sum into one class per
  // non-empty subset of the terms: 2^7 - 1 = 127 classes (7 of them the leaves).
  Language bin;
  const OpId sym = bin.add_op("sym", 0, false, PayloadKind::Symbol);
  bin.set_symbol_op(sym);
  bin.add_op("+", 2);
  std::vector<Rewrite> rules;
  rules.push_back(Rewrite::parse(bin, "comm", "(+ ?a ?b)", "(+ ?b ?a)"));
  rules.push_back(Rewrite::parse(bin, "assoc", "(+ ?a (+ ?b ?c))", "(+ (+ ?a ?b) ?c)"));
  rules.push_back(Rewrite::parse(bin, "assoc-rev", "(+ (+ ?a ?b) ?c)", "(+ ?a (+ ?b ?c))"));
  EGraph g(bin);
  const Id left = g.add_expr("(+ x1 (+ x2 (+ x3 (+ x4 (+ x5 (+ x6 x7))))))");
  const Id right = g.add_expr("(+ (+ (+ (+ (+ (+ x7 x6) x5) x4) x3) x2) x1)");
  RunnerOptions opts;
  opts.limits.nodes = 100000;
  opts.limits.iterations = 100;
  Runner runner(g, opts);
  runner.set_scheduler(std::make_unique<SimpleScheduler>());
  const RunReport rep = runner.run(rules);
  EXPECT_EQ(rep.stop_reason, StopReason::Saturated);
  EXPECT_TRUE(g.is_equal(left, right));
  EXPECT_EQ(g.num_classes(), 127u);
  // n-ary AC: both terms are inserted as the single node (+ x1 ... x7); no rule runs.
  Arith a = make_arith();
  EGraph h(a.lang);
  const Id l2 = h.add_expr("(+ x1 (+ x2 (+ x3 (+ x4 (+ x5 (+ x6 x7))))))");
  const Id r2 = h.add_expr("(+ (+ (+ (+ (+ (+ x7 x6) x5) x4) x3) x2) x1)");
  EXPECT_EQ(l2, r2);
  EXPECT_EQ(h.num_classes(), 8u); // the 7 leaves and ONE sum class
  EXPECT_EQ(h.num_nodes(), 8u);
}

TEST(NaryAc, FlatteningSplicesSameOperatorChildrenOnly) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id s = g.add_expr("(+ a (+ b (* c (+ d e))) (+ f g))");
  g.rebuild();
  // The inner (+ d e) is under *, so it keeps its own class; (+ b ...) and (+ f g) are spliced.
  EXPECT_TRUE(g.lookup_term(term(a.lang, "(+ d e)")).has_value());
  EXPECT_FALSE(g.lookup_term(term(a.lang, "(+ f g)")).has_value());
  EXPECT_EQ(s, *g.lookup_term(term(a.lang, "(+ g f (* c (+ e d)) b a)")));
  const NodeView v = g.node(g.class_nodes(s)[0]);
  EXPECT_EQ(v.children.size(), 5u);
  EXPECT_TRUE(std::is_sorted(v.children.begin(), v.children.end()));
  expect_invariants(g);
}

TEST(NaryAc, SharedPartialSumGetsAClassOnlyWhenUsedElsewhere) {
  Arith a = make_arith();
  EGraph g(a.lang);
  // (+ a b) is shared by a sum (spliced) and by exp (needs its class).
  const Term t = term(a.lang, "(* (exp (+ a b)) (+ c (+ a b)))");
  g.add_term(t);
  EXPECT_TRUE(g.lookup_term(term(a.lang, "(+ a b)")).has_value());
  EXPECT_TRUE(g.lookup_term(term(a.lang, "(+ a b c)")).has_value());
}

TEST(NaryAc, MultiplicitiesAreKept) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id x2 = g.add_expr("(+ x x)");
  const Id x3 = g.add_expr("(+ x (+ x x))");
  EXPECT_NE(x2, x3);
  EXPECT_EQ(g.node(g.class_nodes(x3)[0]).children.size(), 3u);
}

TEST(NaryAc, RebuildResortsAndMergesCongruentSums) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id s1 = g.add_expr("(+ p q r)");
  const Id s2 = g.add_expr("(+ u r q)");
  const Id t1 = g.add_expr("(exp (+ p q r))");
  const Id t2 = g.add_expr("(exp (+ r u q))");
  g.merge(g.add_expr("p"), g.add_expr("u"));
  g.rebuild();
  EXPECT_TRUE(g.is_equal(s1, s2));
  EXPECT_TRUE(g.is_equal(t1, t2));
  expect_invariants(g);
}

TEST(NaryAc, RandomRegroupingsOf4096TermSumsLandInOneClass) {
  Arith a = make_arith();
  EGraph g(a.lang);
  std::mt19937 rng(2024);
  Id first = kNoId;
  for (int trial = 0; trial < 6; ++trial) {
    const Term t = random_sum(a, 4096, rng);
    const Id id = g.add_term(t);
    if (first == kNoId)
      first = id;
    ASSERT_EQ(id, first) << "trial " << trial;
  }
  // 4096*2 symbols + 4096 products + one sum.
  EXPECT_EQ(g.num_classes(), 4096u * 3 + 1);
  g.rebuild();
  expect_invariants(g);
  // A sum missing one term, or with one term twice, is a different class.
  Term t = random_sum(a, 4095, rng);
  EXPECT_NE(g.add_term(t), first);
}

TEST(NaryAc, RandomPermutationsOfLongSumsMergeAfterChildrenMerge) {
  // Two 300-term sums over distinct symbols become equal once their symbols are merged
  // pairwise; the sum node is re-canonicalized (re-sorted) once per rebuild round.
  Arith a = make_arith();
  EGraph g(a.lang);
  std::mt19937 rng(5);
  Term t1, t2;
  std::vector<Term::Index> l1, l2;
  for (int i = 0; i < 300; ++i) {
    l1.push_back(t1.add_leaf(a.sym, a.lang.intern_symbol(testing::cat("u", i))));
    l2.push_back(t2.add_leaf(a.sym, a.lang.intern_symbol(testing::cat("v", i))));
  }
  std::shuffle(l1.begin(), l1.end(), rng);
  std::shuffle(l2.begin(), l2.end(), rng);
  random_tree(t1, a.add, l1, rng);
  random_tree(t2, a.add, l2, rng);
  const Id s1 = g.add_term(t1), s2 = g.add_term(t2);
  for (int i = 0; i < 300; ++i) {
    g.merge(g.add_symbol(testing::cat("u", i)), g.add_symbol(testing::cat("v", i)));
    if (i == 150) {
      g.rebuild();
      EXPECT_FALSE(g.is_equal(s1, s2));
      expect_invariants(g);
    }
  }
  g.rebuild();
  EXPECT_TRUE(g.is_equal(s1, s2));
  expect_invariants(g);
}

TEST(NaryAc, FlattenLimitKeepsHugeSharedSumsAsClasses) {
  // s_{k+1} = s_k + s_k doubles: fully flattening s_40 would need 2^40 children. With a limit
  // of 64, s_6 (64 x's) is spliced into s_7 (128 x's), which is not spliced further: s_8 ...
  // s_13 splice down to copies of s_7 until s_14 (128 copies) is over the limit again, and so
  // on: classes only for x, s_7, s_14, s_21, s_28, s_35 and s_40 (32 copies of s_35).
  Arith a = make_arith();
  Term t;
  auto s = t.add_leaf(a.sym, a.lang.intern_symbol("x"));
  for (int k = 0; k < 40; ++k)
    s = t.add(a.add, {s, s});
  EGraphOptions opts;
  opts.max_flat_children = 64;
  EGraph g(a.lang, opts);
  const Id id = g.add_term(t);
  g.rebuild();
  EXPECT_EQ(g.node(g.class_nodes(id)[0]).children.size(), 32u);
  EXPECT_EQ(g.num_nodes(), 7u);
  Term s7 = term(a.lang, "x");
  auto r = s7.root();
  for (int k = 0; k < 7; ++k)
    r = s7.add(a.add, {r, r});
  EXPECT_EQ(g.node(g.class_nodes(*g.lookup_term(s7))[0]).children.size(), 128u);
  expect_invariants(g);
}

} // namespace
} // namespace volta::egraph
