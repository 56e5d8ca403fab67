// S-expression reader and printer: terms, rationals, located errors.

#include <gtest/gtest.h>

#include "egraph/arith.hpp"
#include "egraph/pattern.hpp"
#include "egraph/sexpr.hpp"

namespace volta::egraph {
namespace {

TEST(Sexpr, RoundTripsTerms) {
  Arith a = make_arith();
  for (const char* text :
       {"(+ (* a b) (exp (neg x)))", "(/ 3/4 -2)", "A[17]", "(max (- x y) 0 (min 1/3 z))"}) {
    auto t = parse_term(text, a.lang);
    ASSERT_TRUE(t.ok()) << t.error().format();
    EXPECT_EQ(to_sexpr(*t, a.lang), text);
  }
}

TEST(Sexpr, ExactRationals) {
  EXPECT_EQ(*parse_rational("3/4"), mpq_class(3, 4));
  EXPECT_EQ(*parse_rational("-2"), mpq_class(-2));
  EXPECT_EQ(*parse_rational("6/8"), mpq_class(3, 4));
  EXPECT_EQ(*parse_rational("0.125"), mpq_class(1, 8));
  EXPECT_EQ(*parse_rational("-1.5"), mpq_class(-3, 2));
  EXPECT_EQ(*parse_rational("+7"), mpq_class(7));
  EXPECT_FALSE(parse_rational("1/0"));
  EXPECT_FALSE(parse_rational("x1"));
  EXPECT_FALSE(parse_rational("1e5"));
  EXPECT_FALSE(parse_rational("-"));
  EXPECT_FALSE(parse_rational("1/2/3"));
}

TEST(Sexpr, CommentsAndWhitespace) {
  Arith a = make_arith();
  auto t = parse_term("; a comment\n(+ a ; inner\n b)\n", a.lang);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(to_sexpr(*t, a.lang), "(+ a b)");
}

TEST(Sexpr, LocatedErrors) {
  Arith a = make_arith();
  struct Case {
    const char* text;
    const char* expect;
  };
  for (const Case& c : {
           Case{"(+ a", "<input>:1:1: error: unclosed '(' (missing ')')"},
           Case{"(+ a b))", "<input>:1:8: error: unexpected text after the expression"},
           Case{"(foo a)", "<input>:1:2: error: unknown operator 'foo'"},
           Case{"(- a)", "<input>:1:1: error: operator '-' takes 2 argument(s), found 1"},
           Case{"\n  (exp ?x)",
                "<input>:2:8: error: pattern variable '?x' is not allowed in a term"},
           Case{"()", "<input>:1:1: error: empty list: expected (operator argument...)"},
           Case{"", "<input>:1:1: error: expected an s-expression, found end of input"},
           Case{")", "<input>:1:1: error: unexpected ')'"},
           Case{"(+)", "<input>:1:1: error: AC operator '+' needs at least one argument"},
           Case{"(num x)", "<input>:1:6: error: 'x' is not an exact rational"},
           Case{"num",
                "<input>:1:1: error: leaf operator 'num' needs a payload: write (num payload)"},
       }) {
    auto t = parse_term(c.text, a.lang);
    ASSERT_FALSE(t.ok()) << c.text;
    EXPECT_EQ(t.error().format(), c.expect);
  }
  EXPECT_THROW(parse_term_or_throw("(+ a", a.lang), std::invalid_argument);
}

TEST(Sexpr, PayloadOperatorsAndBareOperators) {
  Language lang;
  const OpId sym = lang.add_op("sym", 0, false, PayloadKind::Symbol);
  lang.set_symbol_op(sym);
  lang.add_op("idx", 0, false, PayloadKind::Raw);
  lang.add_op("true", 0);
  lang.add_op("f", 2);
  auto t = parse_term("(f (idx 42) true)", lang);
  ASSERT_TRUE(t.ok()) << t.error().format();
  EXPECT_EQ(to_sexpr(*t, lang), "(f (idx 42) true)");
  EXPECT_EQ(t->payload(0), 42u);
  // No constant operator: numbers are an error.
  auto bad = parse_term("(f 1 x)", lang);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().format(),
            "<input>:1:4: error: the language has no constant operator for '1'");
}

TEST(Sexpr, LanguageRejectsInconsistentOperators) {
  Language lang;
  lang.add_op("f", 1);
  EXPECT_THROW(lang.add_op("f", 2), std::invalid_argument);
  EXPECT_THROW(lang.add_op("+", 2, true), std::invalid_argument);
  EXPECT_THROW(lang.add_op("c", 1, false, PayloadKind::Symbol), std::invalid_argument);
  EXPECT_THROW(lang.op_id("nope"), std::invalid_argument);
}

TEST(Sexpr, PatternsAndTheirErrors) {
  Arith a = make_arith();
  auto p = Pattern::parse("(+ (* 2 ?x) ?rest...)", a.lang);
  ASSERT_TRUE(p.ok()) << p.error().format();
  EXPECT_EQ(p->to_string(), "(+ (* 2 ?x) ?rest...)");
  EXPECT_EQ(p->vars().size(), 2u);
  EXPECT_EQ(p->vars().stride(), 1u + 2u + 1u); // ?x; ?rest: node, count, one sibling
  struct Case {
    const char* text;
    const char* expect;
  };
  for (const Case& c : {
           Case{"?x",
                "<input>:1:1: error: a left-hand side must start with an operator, not a variable"},
           Case{"(exp ?x...)",
                "<input>:1:6: error: rest variable ?x... must be a direct child of an AC operator"},
           Case{"(+ ?a... ?b...)", "<input>:1:1: error: at most one rest variable per AC node"},
           Case{"(* (+ ?a ?r...) (+ ?b ?r...))",
                "<input>:1:1: error: rest variable ?r... must occur once"},
           Case{"(+ ?a ?a...)", "<input>:1:7: error: variable ?a is not a rest variable"},
       }) {
    auto bad = Pattern::parse(c.text, a.lang);
    ASSERT_FALSE(bad.ok()) << c.text;
    EXPECT_EQ(bad.error().format(), c.expect);
  }
  auto lhs = Pattern::parse("(- ?a ?b)", a.lang);
  auto rhs = Pattern::parse_rhs("(+ ?a ?c)", a.lang, *lhs);
  ASSERT_FALSE(rhs.ok());
  EXPECT_EQ(rhs.error().format(),
            "<input>:1:7: error: variable ?c is not bound by the left-hand side");
}

} // namespace
} // namespace volta::egraph
