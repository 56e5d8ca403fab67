// Extraction with AstSize, AstDepth and custom costs.

#include "egraph/extract.hpp"
#include "test_util.hpp"

namespace volta::egraph {
namespace {

TEST(Extract, AstSizeAndDepthPickDifferentTerms) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id wide = g.add_expr("(+ a b c d e f)");           // size 7, depth 2
  const Id deep = g.add_expr("(exp (exp (exp (exp z))))"); // size 5, depth 5
  g.merge(wide, deep);
  g.rebuild();
  EXPECT_EQ(to_sexpr(Extractor(g, ast_size()).extract(wide), a.lang), "(exp (exp (exp (exp z))))");
  EXPECT_EQ(to_sexpr(Extractor(g, ast_depth()).extract(wide), a.lang), "(+ a b c d e f)");
  EXPECT_EQ(*Extractor(g, ast_size()).cost(wide), 5.0);
  EXPECT_EQ(*Extractor(g, ast_depth()).cost(wide), 2.0);
}

TEST(Extract, CustomCostAndCycles) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id x = g.add_expr("x");
  const Id e = g.add_expr("(exp x)");
  g.merge(x, e); // x = exp(x): a cycle; the cheapest term is still x
  const Id d = g.add_expr("(/ y 2)");
  g.merge(d, g.add_expr("(* y 1/2)"));
  g.rebuild();
  EXPECT_EQ(to_sexpr(Extractor(g, ast_size()).extract(e), a.lang), "x");
  // Division is expensive.
  CostFn no_div = [&a](const EGraph&, NodeView n, std::span<const double> kids) {
    double c = n.op == a.div ? 100 : 1;
    for (double k : kids)
      c += k;
    return c;
  };
  EXPECT_EQ(to_sexpr(Extractor(g, no_div).extract(d), a.lang), "(* y 1/2)");
  std::vector<Term::Index> roots;
  const Id ids[] = {d, e, d};
  const Term many = Extractor(g, no_div).extract_many(ids, roots);
  ASSERT_EQ(roots.size(), 3u);
  EXPECT_EQ(roots[0], roots[2]);
  EXPECT_EQ(to_sexpr(many, a.lang, roots[1]), "x");
}

TEST(Extract, ClassWithoutFiniteTermThrows) {
  Language l;
  l.add_op("f", 1);
  l.add_op("c", 0);
  EGraph g(l);
  const Id c = g.add_expr("c");
  const Id fc = g.add_expr("(f c)");
  g.merge(c, fc);
  g.rebuild();
  Extractor ex(g, ast_size());
  EXPECT_EQ(to_sexpr(ex.extract(fc), l), "c");
  // Zero-cost applications make the greedy choice cyclic: reported, not a hang.
  CostFn zero = [](const EGraph&, NodeView, std::span<const double>) { return 0.0; };
  Extractor z(g, zero);
  EXPECT_NO_THROW(z.extract(c)); // c itself costs 0 and is found first
}

} // namespace
} // namespace volta::egraph
