// A store with a few input arrays and parameters, and shorthands for building element pairs.
#pragma once

#include <gtest/gtest.h>

#include "engine/smt/z3_fallback.hpp"
#include "engine/symbolic/builder.hpp"

namespace volta::smt::testing {

using symbolic::ExprId;
using symbolic::Op;
using Kind = prove::ElementOutcome::Kind;

class SmtTest : public ::testing::Test {
protected:
  SmtTest() : b(store) {
    a_array = store.add_array_name("A");
    b_array = store.add_array_name("B");
    alpha_id = store.add_param_name("alpha");
  }

  ExprId A(uint32_t i) { return store.input(a_array, i); }
  ExprId B(uint32_t i) { return store.input(b_array, i); }
  ExprId alpha() { return store.param(alpha_id); }
  ExprId c(long v) { return store.constant(v); }
  ExprId q(long num, long den) { return store.constant(symbolic::Rational(num, den)); }
  ExprId exp(ExprId x) { return b.unary(Op::Exp, x); }

  prove::ElementOutcome decide(ExprId ref, ExprId opt, unsigned timeout_ms = 20'000) {
    Z3Options o;
    o.budget.timeout_ms = timeout_ms;
    return decide_with_z3(store, ref, opt, "O[0]", o);
  }

  symbolic::ExprStore store;
  symbolic::Builder b;
  uint32_t a_array = 0, b_array = 0, alpha_id = 0;
};

} // namespace volta::smt::testing
