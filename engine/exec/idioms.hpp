// Lifts the exponential idioms of real nvcc output to one exp(x) node, on the expression DAG as
// it is built (not on a fixed instruction window), and counts each lift:
//   * "__symexpf":    a call to the extern device function __symexpf (Volta's corpus);
//   * "__expf":       ex2.approx(x * 0f3FB8AA3B) (also expf under --use_fast_math);
//   * "exp2f":        any other ex2.approx(t), lifted to exp(t * ln2);
//   * "expf":         nvcc's accurate range reduction (docs/semantics.md, "Idealizations"): p =
//   ex2(f) with
//                     f = fma(x, 0f32A57060, fma(x, 0f3FB8AA3B, -(j + 0fCB40007F))),
//                     j = fma.rm(sat(fma(x, 0f3BBB989D, 0.5)), 0f437C0000, 0f4B400001),
//                     scale = bits(shl(bits(j), 23)); p * scale (or fused: fma(p, scale, acc)).
//                     Every constant is checked exactly, the clamp's bounds [0, 1] included.
//   * "tanhf":        nvcc's accurate tanhf, lifted to tanh(x) at its final select:
//                     |x| >= 0f3F19999A (0.6) ? copysign(x, |x| >= 0f41102CB4 ? 1 : fma(rcp(
//                     ex2(|x| * 0f4038AA3B) + 1), -2, 1)) : fma(poly(x*x), x, x), with
//                     poly(s) = fma(fma(fma(fma(0f3C80F082, s, 0fBD563CAE), s, 0f3E085941), s,
//                     0fBEAAA9ED), s, 0). Every constant and both thresholds checked exactly.
//   * "__logf":       lg2.approx(x) * 0f3F317218 (logf under --use_fast_math), lifted to
//                     lg2(x) * ln2 = log(x);
//   * "logf":         nvcc's accurate logf, lifted to lg2(x) * ln2 at its final select: the
//                     subnormal scaling (x < 2^-126: x * 2^23, exponent bias -23), the
//                     bit-level reduction m = bits(b - ((b + 0xC0D55555) & 0xFF800000)) of
//                     b = bits(x), the exponent e = (float)((b + 0xC0D55555) & 0xFF800000) *
//                     2^-23, the degree-10 polynomial in m - 1, e * 0f3F317218 added, and the
//                     special cases (b >= 0x7F800000: x * inf + inf, x == 0: -inf); every
//                     constant checked by rebuilding the sequence from x. lg2 carries the
//                     domain condition x > 0.
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

  // The instructions ex2, mul and fma with their modifiers (`m`), lifted where they end an idiom.
  symbolic::ExprId ex2(symbolic::ExprId t, symbolic::FloatMods m = {});
  symbolic::ExprId mul(symbolic::ExprId a, symbolic::ExprId b, symbolic::FloatMods m = {});
  symbolic::ExprId fma(symbolic::ExprId a, symbolic::ExprId b, symbolic::ExprId c,
                       symbolic::FloatMods m = {});
  symbolic::ExprId symexp(symbolic::ExprId x);
  // copysign.f32/.f64 d, a, b: |b| with the sign BIT of a. A constant a decides by its sign bit,
  // -0.0's included; an a the sign analysis proves nonzero and a number selects on a < 0 over
  // the reals (the select is marked lifted). Otherwise the sign bit is read from a's bits
  // (`format`: f32 or f64): reals have one zero but the device two, and copysign(1, -0.0) is -1
  // where `a < 0 ? -1 : 1` gives 1, so the select must not be the real comparison.
  symbolic::ExprId copysign(symbolic::ExprId a, symbolic::ExprId b, uint8_t format);
  // A data-dependent select of reals (selp): the tanhf lift, else the plain select.
  symbolic::ExprId select(symbolic::ExprId cond, symbolic::ExprId x, symbolic::ExprId y);
  // Records an idealization that is not a lift (a float width change, an approximate
  // instruction read as its exact function), so that the report lists it with the lifts.
  void idealized(const std::string& what, uint64_t lanes) { counts_[what] += lanes; }

private:
  // x when (p, scale) is the accurate-expf pair, else 0.
  symbolic::ExprId accurate_expf_argument(symbolic::ExprId p, symbolic::ExprId scale);
  bool is_int(symbolic::ExprId id, long value) const;
  bool is_const(symbolic::ExprId id, uint32_t f32_bits) const;
  symbolic::ExprId lifted(const char* idiom, symbolic::ExprId x);
  // x when select(cond, large, small) is nvcc's accurate tanhf of x, else 0.
  symbolic::ExprId accurate_tanhf_argument(symbolic::ExprId cond, symbolic::ExprId large,
                                           symbolic::ExprId small);
  symbolic::ExprId f32(uint32_t bits);
  // The same term: the same node, or the same operator, modifiers and operands (links of sum
  // chains are appended without hash-consing, so a rebuilt sum is another node).
  bool same_term(symbolic::ExprId a, symbolic::ExprId b) const;
  // x when select(cond, x_, y) is nvcc's accurate logf of x, else 0.
  symbolic::ExprId accurate_logf_argument(symbolic::ExprId cond, symbolic::ExprId if_true,
                                          symbolic::ExprId if_false);
  symbolic::ExprId log_of(const char* idiom, symbolic::ExprId x);

  symbolic::Builder& b_;
  std::map<std::string, uint64_t>& counts_;
};

} // namespace volta::exec
