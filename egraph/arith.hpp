#pragma once
// A small arithmetic language for tests, benchmarks and the docs' example: exact rational
// constants (`num`, written 3/4), symbols (`sym`, written A[17]), n-ary AC `+ * max min`, binary
// `- /`, unary `neg exp`. The engine defines its own language; this one only demonstrates the
// generic API.

#include "egraph/constant_folding.hpp"
#include "egraph/language.hpp"

namespace volta::egraph {

class EGraph;

struct Arith {
  Language lang;
  OpId num = 0, sym = 0, add = 0, mul = 0, sub = 0, div = 0, neg = 0, exp = 0, max = 0, min = 0;
};

Arith make_arith();

// Registers constant folding for every Arith operator on `g` (before nodes are added).
ConstantFolding& add_arith_constant_folding(EGraph& g, Arith& a);

} // namespace volta::egraph
