#pragma once
// Helpers shared by the e-graph tests.

#include "egraph/arith.hpp"
#include "egraph/egraph.hpp"
#include "egraph/sexpr.hpp"

#include <gtest/gtest.h>
#include <string>
#include <type_traits>

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

} // namespace volta::egraph::testing
