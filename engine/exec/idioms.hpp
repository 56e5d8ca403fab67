// Lifts the exponential idioms of real nvcc output to one exp(x) node, on the expression DAG as
// it is built (not on a fixed instruction window), and counts each lift:
//   * "__symexpf":    a call to the extern device function __symexpf (Volta's corpus);
//   * "__expf":       ex2.approx(x * 0f3FB8AA3B) (also expf under --use_fast_math);
//   * "exp2f":        any other ex2.approx(t), lifted to exp(t * ln2);
//   * "expf":         nvcc's accurate range reduction (domain.md §3): p = ex2(f) with
//                     f = fma(x, 0f32A57060, fma(x, 0f3FB8AA3B, -(j + 0fCB40007F))),
//                     j = fma.rm(sat(fma(x, 0f3BBB989D, 0.5)), 0f437C0000, 0f4B400001),
//                     scale = bits(shl(bits(j), 23)); p * scale (or fused: fma(p, scale, acc)).
//                     Every constant is checked exactly, the clamp's bounds [0, 1] included.
// Over the reals each of these is exp(x) up to the rounding of log2(e) to float, which is the
// meaning the programmer intended; the report lists every lift so that a user sees the
// idealization. Bit tricks that match none of these stay opaque and make a kernel UNSUPPORTED
// when they reach an output.
#pragma once

#include <map>
#include <string>

#include "engine/symbolic/builder.hpp"

namespace volta::exec {

class IdiomLifter {
public:
  IdiomLifter(symbolic::Builder& b, std::map<std::string, uint64_t>& counts)
      : b_(b), counts_(counts) {}

  symbolic::ExprId ex2(symbolic::ExprId t);
  symbolic::ExprId mul(symbolic::ExprId a, symbolic::ExprId b);
  symbolic::ExprId fma(symbolic::ExprId a, symbolic::ExprId b, symbolic::ExprId c);
  symbolic::ExprId symexp(symbolic::ExprId x);
  // Records an idealization that is not a lift (a float width change, an approximate
  // instruction read as its exact function), so that the report lists it with the lifts.
  void idealized(const std::string& what, uint64_t lanes) { counts_[what] += lanes; }

private:
  // x when (p, scale) is the accurate-expf pair, else 0.
  symbolic::ExprId accurate_expf_argument(symbolic::ExprId p, symbolic::ExprId scale);
  bool is_int(symbolic::ExprId id, long value) const;
  bool is_const(symbolic::ExprId id, uint32_t f32_bits) const;
  symbolic::ExprId lifted(const char* idiom, symbolic::ExprId x);

  symbolic::Builder& b_;
  std::map<std::string, uint64_t>& counts_;
};

} // namespace volta::exec
