// Ground (quantifier-free) instances of laws of the real functions behind the uninterpreted
// symbols of a translation. Quantified axioms such as forall x y. exp(x)exp(y) = exp(x+y) make
// Z3 4.8.12 loop past its own timeout (docs/smt.md, "Ground laws"), so only instances over terms
// that occur in the query are added. Every fact is true of the real functions at every point, which
// is what keeps an UNSAT answer sound (docs/smt.md lists them).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <z3++.h>

#include "engine/smt/translate.hpp"

namespace volta::smt {

struct LawOptions {
  // exp(a)·exp(b) = exp(c): how many (a, b) pairs of exp arguments are examined (each is a table
  // lookup), and how many facts are added at most. Pairs are examined in translation order.
  size_t max_pair_checks = 4'000'000;
  size_t max_pair_facts = 4'096;
  // a < b -> exp(a) < exp(b) for the first pairs of exp arguments (each pair costs Z3 a case
  // split, so the default is small).
  size_t max_monotonic_pairs = 64;
  // The pair search stops here (the query's deadline: the laws are built in the caller's
  // thread, before any check, and must not outlast the budget).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  // The query's cancel flag (the entry's time limit, SIGTERM): read with the deadline, so that
  // the laws of a large query (one exp per running-maximum step) stop with the entry.
  const std::atomic<bool>* cancel = nullptr;
};

struct LawStats {
  size_t exp_positive = 0;  // exp(a) > 0 and exp(a) >= 1 + a
  size_t exp_same_arg = 0;  // exp(a) = exp(b) when a and b normalize to the same polynomial
  size_t exp_zero = 0;      // exp(a) = 1 when a normalizes to 0
  size_t exp_products = 0;  // exp(a)·exp(b) = exp(c) (or = 1) when a + b normalizes to c (or 0)
  size_t exp_monotonic = 0; // a < b -> exp(a) < exp(b), two per pair
  size_t sqrt_facts = 0;    // a >= 0 -> sqrt(a) >= 0 and sqrt(a)^2 = a
  size_t bounded = 0;       // -1 < tanh(a) < 1, -1 <= sin(a), cos(a) <= 1
  bool pair_checks_capped = false;
  // The number of facts (the ln2 bounds, one more fact, are not counted).
  size_t total() const {
    return exp_positive + exp_same_arg + exp_zero + exp_products + exp_monotonic + sqrt_facts +
           bounded;
  }
};

// The facts for `t` (plus bounds on the ln2 constant when it is used).
z3::expr_vector ground_laws(z3::context& ctx, const symbolic::ExprStore& store,
                            const Translation& t, const LawOptions& options,
                            LawStats* stats = nullptr);

} // namespace volta::smt
