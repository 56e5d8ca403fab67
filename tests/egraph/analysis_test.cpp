// E-class analyses: exact constant folding, coexistence of several analyses.

#include "test_util.hpp"

namespace volta::egraph {
namespace {

using testing::expect_invariants;

TEST(ConstantFolding, FoldsExactRationals) {
  Arith a = make_arith();
  EGraph g(a.lang);
  auto& cf = add_arith_constant_folding(g, a);
  const Id x = g.add_expr("(+ 1/3 1/6)");
  EXPECT_EQ(*cf.value(g, x), mpq_class(1, 2));
  EXPECT_TRUE(g.is_equal(x, g.add_expr("1/2"))); // modify merged in the constant node
  EXPECT_EQ(*cf.value(g, g.add_expr("(/ 1 3)")), mpq_class(1, 3));
  EXPECT_EQ(*cf.value(g, g.add_expr("(* 2/3 3/2 7)")), mpq_class(7));
  EXPECT_EQ(*cf.value(g, g.add_expr("(- 0.1 1/10)")), mpq_class(0));
  EXPECT_EQ(*cf.value(g, g.add_expr("(neg -5/7)")), mpq_class(5, 7));
  EXPECT_EQ(*cf.value(g, g.add_expr("(max 1/3 0.5 -2)")), mpq_class(1, 2));
  EXPECT_EQ(*cf.value(g, g.add_expr("(min 1/3 0.5 -2)")), mpq_class(-2));
  EXPECT_EQ(*cf.value(g, g.add_expr("(exp 0)")), mpq_class(1));
  EXPECT_FALSE(cf.value(g, g.add_expr("(exp 1)")));
  // 0.1 is exactly 1/10, not the nearest double.
  EXPECT_EQ(*cf.value(g, g.add_expr("(* 0.1 3)")), mpq_class(3, 10));
  g.rebuild();
  expect_invariants(g);
}

TEST(ConstantFolding, NeverFoldsDivisionByZero) {
  Arith a = make_arith();
  EGraph g(a.lang);
  auto& cf = add_arith_constant_folding(g, a);
  EXPECT_FALSE(cf.value(g, g.add_expr("(/ 1 0)")));
  EXPECT_FALSE(cf.value(g, g.add_expr("(/ 1 (- 2 2))")));
  EXPECT_FALSE(cf.value(g, g.add_expr("(/ 0 0)")));
}

TEST(ConstantFolding, PropagatesThroughMerges) {
  Arith a = make_arith();
  EGraph g(a.lang);
  auto& cf = add_arith_constant_folding(g, a);
  const Id e = g.add_expr("(* (+ x 1) 4)");
  EXPECT_FALSE(cf.value(g, e));
  g.merge(g.add_expr("x"), g.add_expr("1/2"));
  g.rebuild();
  EXPECT_EQ(*cf.value(g, e), mpq_class(6));
  EXPECT_TRUE(g.is_equal(e, g.add_expr("6")));
  expect_invariants(g);
}

TEST(ConstantFolding, ConflictsAreCountedNotFatal) {
  Arith a = make_arith();
  EGraph g(a.lang);
  auto& cf = add_arith_constant_folding(g, a);
  g.merge(g.add_expr("1"), g.add_expr("2")); // an unsound merge
  g.rebuild();
  EXPECT_EQ(cf.conflicts(), 1u);
}

// A second analysis that reads the first: a class is "ground" when it is equal to a term without
// symbols, which it learns from its children's ground flags or their constant-folding values.
struct Ground {
  bool value = false;
  friend bool operator==(const Ground&, const Ground&) = default;
};
class GroundAnalysis : public AnalysisOf<Ground> {
public:
  GroundAnalysis(OpId sym, const ConstantFolding& cf) : sym_(sym), cf_(cf) {}
  std::string_view name() const override { return "ground"; }

protected:
  Ground make_data(const EGraph& g, NodeView n) override {
    if (n.op == sym_)
      return {false};
    bool all = true;
    for (Id c : n.children)
      all &= data(g.find(c)).value || cf_.data(g.find(c)).known();
    return {all};
  }
  MergeResult merge_data(Ground& a, const Ground& b) override {
    const bool merged = a.value || b.value; // equal to something ground => ground
    const MergeResult r{merged != a.value, merged != b.value};
    a.value = merged;
    return r;
  }

private:
  OpId sym_;
  const ConstantFolding& cf_;
};

TEST(Analyses, SeveralCoexistAndPropagate) {
  Arith a = make_arith();
  EGraph g(a.lang);
  auto& cf = add_arith_constant_folding(g, a);
  auto& ground = g.add_analysis<GroundAnalysis>(a.sym, cf);
  EXPECT_EQ(g.find_analysis<GroundAnalysis>(), &ground);
  EXPECT_EQ(g.find_analysis<ConstantFolding>(), &cf);
  EXPECT_EQ(g.analyses().size(), 2u);
  const Id e = g.add_expr("(exp (* y 2))");
  EXPECT_FALSE(ground.data(g.find(e)).value);
  g.merge(g.add_expr("y"), g.add_expr("3"));
  g.rebuild();
  EXPECT_TRUE(ground.data(g.find(e)).value); // propagated up through * and exp
  EXPECT_TRUE(g.is_equal(g.add_expr("(* y 2)"), g.add_expr("6")));
  EXPECT_FALSE(cf.value(g, e)); // exp(6) is not rational
  expect_invariants(g);
}

} // namespace
} // namespace volta::egraph
