#pragma once
// The ML algebra as an e-graph language: the operators that both kernels' output expressions
// are written in when they enter the shared e-graph, and that rule files (rules/library/*.rules,
// docs/rules.md) name. Every operator is read over the reals, as the engine's expression DAG is.
//
//   leaves     num (exact rational: 3/4, 0.125), sym (input element A[17], parameter alpha),
//              ln2, inf, -inf, opaque (a value the algebra does not model: uninitialized, a
//              bit-level operation, an atomic's result; never equal to anything but itself)
//   n-ary AC   +  *  max  min
//   binary     /  and  or  xor  lt  le  gt  ge  eq  ne   (predicates are the reals 0 and 1)
//   unary      neg  exp  ex2 (2^x)  sqrt  rsqrt  log2  sin  cos  tanh  abs  not
//   ternary    select (c ? a : b, c read as c != 0)
//
// Subtraction is a + (neg b); fma/mad a*b + c are written as those sums and products when the
// DAGs enter the e-graph (engine/prove/egraph_bridge.hpp), so that a K-step reduction is one
// n-ary sum.
#include "egraph/language.hpp"

namespace volta::algebra {

struct MlLanguage {
  egraph::Language lang;
  egraph::OpId num = 0, sym = 0, ln2 = 0, pos_inf = 0, neg_inf = 0, opaque = 0;
  egraph::OpId add = 0, mul = 0, max = 0, min = 0;
  egraph::OpId div = 0, neg = 0, exp = 0, ex2 = 0, sqrt = 0, rsqrt = 0, log2 = 0, sin = 0, cos = 0,
               tanh = 0, abs = 0;
  egraph::OpId lt = 0, le = 0, gt = 0, ge = 0, eq = 0, ne = 0;
  egraph::OpId land = 0, lor = 0, lxor = 0, lnot = 0, select = 0;
};

MlLanguage make_ml_language();

} // namespace volta::algebra
