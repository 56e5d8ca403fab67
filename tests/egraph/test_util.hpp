#pragma once
// Helpers shared by the e-graph tests.

#include <gtest/gtest.h>
#include <string>
#include <type_traits>
#include <vector>

#include "egraph/arith.hpp"
#include "egraph/egraph.hpp"
#include "egraph/rewrite.hpp"
#include "egraph/sexpr.hpp"

namespace volta::egraph::testing {

// Fails the current test with the invariant violation, if any.
inline void expect_invariants(const EGraph& g) {
  auto err = g.check_invariants();
  EXPECT_FALSE(err.has_value()) << *err;
}

// Concatenates strings and integers ("x" + std::to_string(i) trips GCC 12's -Wrestrict).
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string out;
  auto put = [&out](const auto& p) {
    if constexpr (std::is_arithmetic_v<std::decay_t<decltype(p)>>)
      out += std::to_string(p);
    else
      out += p;
  };
  (put(parts), ...);
  return out;
}

inline Term term(Language& lang, const std::string& text) {
  return parse_term_or_throw(text, lang);
}

// A small arithmetic rule set over make_arith() (used by several tests).
inline std::vector<Rewrite> arith_rules(Language& l) {
  std::vector<Rewrite> r;
  auto add = [&](const char* name, const char* lhs, const char* rhs) {
    r.push_back(Rewrite::parse(l, name, lhs, rhs));
  };
  add("flatten", "(+ (+ ?xs...) ?ys...)", "(+ ?xs... ?ys...)");
  add("add-0", "(+ 0 ?xs...)", "(+ ?xs...)");
  add("mul-1", "(* 1 ?xs...)", "(* ?xs...)");
  add("mul-0", "(* 0 ?xs...)", "0");
  add("sub-to-add", "(- ?a ?b)", "(+ ?a (* -1 ?b))");
  add("cancel", "(+ ?a (* -1 ?a) ?r...)", "(+ 0 ?r...)");
  add("cancel-2", "(+ ?a (* -1 ?a))", "0");
  add("distribute", "(* ?a (+ ?b ?c))", "(+ (* ?a ?b) (* ?a ?c))");
  add("factor", "(+ (* ?a ?b) (* ?a ?c))", "(* ?a (+ ?b ?c))");
  add("neg", "(neg ?a)", "(* -1 ?a)");
  add("exp-add", "(exp (+ ?a ?b))", "(* (exp ?a) (exp ?b))");
  add("exp-mul", "(* (exp ?a) (exp ?b))", "(exp (+ ?a ?b))");
  return r;
}

} // namespace volta::egraph::testing
