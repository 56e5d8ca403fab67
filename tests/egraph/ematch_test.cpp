// E-matching, including the n-ary AC semantics documented in docs/egraph.md.

#include <set>

#include "egraph/ematch.hpp"
#include "test_util.hpp"

namespace volta::egraph {
namespace {

using testing::term;

struct Fixture {
  Arith a = make_arith();
  EGraph g{a.lang};
  Pattern pat(const char* text) { return Pattern::parse(text, a.lang).value(); }
  // The substitutions of `p` in class `root` as sorted strings "x=(...) y=(...)".
  std::multiset<std::string> matches(const Pattern& p, std::optional<Id> only = std::nullopt) {
    g.rebuild();
    Matches m = search(g, p);
    std::multiset<std::string> out;
    for (std::size_t i = 0; i < m.size(); ++i) {
      if (only && m.roots[i] != g.find(*only))
        continue;
      const Subst s = m.subst(g, p.vars(), i);
      std::string line;
      for (std::uint32_t v = 0; v < p.vars().size(); ++v) {
        line += (v ? " " : "") + p.vars().var(v).name + "=";
        if (p.vars().var(v).rest) {
          line += "{";
          for (Id x : s.rest(v))
            line += name(x) + ",";
          line += "}";
        } else {
          line += name(s[v]);
        }
      }
      out.insert(line);
    }
    return out;
  }
  // A symbol's name for the class id (or "#id").
  std::string name(Id c) {
    for (Id n : g.class_nodes(c))
      if (g.node(n).op == a.sym)
        return a.lang.symbol_name(g.node(n).payload);
    return testing::cat("#", g.find(c));
  }
};

TEST(Ematch, SimpleAndNonLinearPatterns) {
  Fixture f;
  f.g.add_expr("(- x x)");
  f.g.add_expr("(- x y)");
  EXPECT_EQ(f.matches(f.pat("(- ?a ?b)")), (std::multiset<std::string>{"a=x b=x", "a=x b=y"}));
  EXPECT_EQ(f.matches(f.pat("(- ?a ?a)")), (std::multiset<std::string>{"a=x"}));
  EXPECT_EQ(f.matches(f.pat("(- ?a y)")), (std::multiset<std::string>{"a=x"}));
  EXPECT_TRUE(f.matches(f.pat("(- y ?a)")).empty());
}

TEST(Ematch, MatchesThroughClasses) {
  Fixture f;
  const Id e = f.g.add_expr("(exp u)");
  f.g.merge(f.g.add_expr("u"), f.g.add_expr("(- p q)"));
  f.g.rebuild();
  EXPECT_EQ(f.matches(f.pat("(exp (- ?a ?b))"), e), (std::multiset<std::string>{"a=p b=q"}));
}

TEST(Ematch, FixedArityAcPatternMatchesOnlyThatManyElementsInEveryAssignment) {
  Fixture f;
  const Id s2 = f.g.add_expr("(+ x y)");
  f.g.add_expr("(+ x y z)");
  // (+ ?a ?b) matches the two-element sum in both orders, never the three-element one.
  EXPECT_EQ(f.matches(f.pat("(+ ?a ?b)")), (std::multiset<std::string>{"a=x b=y", "a=y b=x"}));
  EXPECT_EQ(f.matches(f.pat("(+ ?a ?b ?c)")).size(), 6u); // 3! assignments
  EXPECT_EQ(f.matches(f.pat("(+ x ?b)")), (std::multiset<std::string>{"b=y"}));
  (void)s2;
}

TEST(Ematch, RepeatedElementsAreNotEnumeratedTwice) {
  Fixture f;
  f.g.add_expr("(+ x x)");
  EXPECT_EQ(f.matches(f.pat("(+ ?a ?b)")), (std::multiset<std::string>{"a=x b=x"}));
  f.g.add_expr("(+ x x y)");
  // ?a over distinct elements {x, y}; the rest is the remaining multiset.
  EXPECT_EQ(f.matches(f.pat("(+ ?a ?r...)")),
            (std::multiset<std::string>{"a=x r={x,}", "a=x r={x,y,}", "a=y r={x,x,}"}));
}

TEST(Ematch, RestVariableTakesTheRemainingSubMultiset) {
  Fixture f;
  f.g.add_expr("(+ (* 2 x) y z)");
  EXPECT_EQ(f.matches(f.pat("(+ (* 2 ?x) ?r...)")), (std::multiset<std::string>{"x=x r={y,z,}"}));
  // A rest variable needs at least one element.
  f.g.add_expr("(+ (* 2 w) v)");
  EXPECT_EQ(f.matches(f.pat("(+ (* 2 ?x) ?r...)")),
            (std::multiset<std::string>{"x=x r={y,z,}", "x=w r={v,}"}));
  EXPECT_TRUE(f.matches(f.pat("(+ ?a ?b ?c ?r...)")).empty()); // no sum has 4 elements
  f.g.add_expr("(+ a b c d)");
  EXPECT_EQ(f.matches(f.pat("(+ ?a ?b ?c ?r...)")).size(), 4u * 3 * 2); // ordered picks of 3
}

TEST(Ematch, BoundVariableSelectsItsElement) {
  Fixture f;
  f.g.add_expr("(+ a (* -1 a) b)");
  f.g.add_expr("(+ a (* -1 b))");
  EXPECT_EQ(f.matches(f.pat("(+ ?x (* -1 ?x) ?r...)")), (std::multiset<std::string>{"x=a r={b,}"}));
  EXPECT_EQ(f.matches(f.pat("(+ ?x (* -1 ?x))")), (std::multiset<std::string>{}));
}

TEST(Ematch, AttemptLimitTruncatesHugeEnumerations) {
  Fixture f;
  Term t;
  std::vector<Term::Index> leaves;
  for (int i = 0; i < 100; ++i)
    leaves.push_back(t.add_leaf(f.a.sym, f.a.lang.intern_symbol(testing::cat("s", i))));
  t.add(f.a.add, leaves);
  f.g.add_term(t);
  f.g.rebuild();
  const Pattern p = f.pat("(+ ?a ?b ?r...)");
  EXPECT_EQ(search(f.g, p).size(), 100u * 99u);
  SearchOptions opts;
  opts.ac_attempt_limit = 500;
  SearchStats stats;
  const Matches m = search(f.g, p, opts, &stats);
  EXPECT_LT(m.size(), 500u);
  EXPECT_EQ(stats.ac_truncated, 1u);
  opts = {};
  opts.match_limit = 10;
  EXPECT_EQ(search(f.g, p, opts, &stats).size(), 10u);
  EXPECT_TRUE(stats.hit_match_limit);
}

TEST(Ematch, NestedAcPatternMatchesAnElementHoldingASum) {
  Fixture f;
  const Id s = f.g.add_expr("(+ a w)");
  f.g.merge(f.g.add_expr("w"), f.g.add_expr("(+ b c)"));
  f.g.rebuild();
  EXPECT_EQ(f.matches(f.pat("(+ ?x (+ ?y ?z))"), s),
            (std::multiset<std::string>{"x=a y=b z=c", "x=a y=c z=b"}));
  // The flat pattern does not see through the class.
  EXPECT_TRUE(f.matches(f.pat("(+ ?x ?y ?z)"), s).empty());
}

TEST(Ematch, PayloadsMustMatch) {
  Fixture f;
  f.g.add_expr("(* 2 x)");
  f.g.add_expr("(* 3 x)");
  EXPECT_EQ(f.matches(f.pat("(* 2 ?x)")), (std::multiset<std::string>{"x=x"}));
  EXPECT_EQ(f.matches(f.pat("(* ?c x)")).size(), 2u);
}

} // namespace
} // namespace volta::egraph
