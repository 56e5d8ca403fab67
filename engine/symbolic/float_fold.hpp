// Constant folding of float operations as the device computes them. A constant is a float the
// model knows the bits of (docs/semantics.md, "Floats observed as bits"), so folding must give
// the device's value exactly, not the real number: an operation folds only when its result is
// exactly representable in the operation's format (no rounding), when it overflows (the device's
// infinity or largest finite value, by the rounding mode), or when it is an exact zero (with the
// sign IEEE 754 §6.3 gives it). A result that would need a rounding is left as a node: over the
// reals it keeps its exact value, and its bits stay an operation the prover compares only as the
// same term. Operations with format 0 (built by the prover, not by an instruction) fold over the
// reals exactly, as before.
#pragma once

#include <optional>

#include "engine/symbolic/expr_store.hpp"
#include "engine/symbolic/rational.hpp"

namespace volta::symbolic {

// A float constant: a finite value (with its sign, so that -0 is kept) or an infinity.
struct FloatConst {
  enum class Kind : uint8_t { Finite, PosInf, NegInf };
  Kind kind = Kind::Finite;
  Rational value;        // Finite only
  bool negative = false; // the sign bit (for a zero: -0)

  static FloatConst finite(Rational v, bool negative_zero = false) {
    const bool neg = sgn(v) < 0 || (sgn(v) == 0 && negative_zero);
    return FloatConst{Kind::Finite, std::move(v), neg};
  }
  static FloatConst inf(bool negative) {
    return FloatConst{negative ? Kind::NegInf : Kind::PosInf, Rational(0), negative};
  }
  bool is_inf() const { return kind != Kind::Finite; }
  bool is_zero() const { return kind == Kind::Finite && sgn(value) == 0; }
};

// The constant a node stands for: Const, the -0 node, PosInf, NegInf; nullopt for anything else.
std::optional<FloatConst> float_const(const ExprStore& store, ExprId id);
// Cheap tests from the dense meta array (the builder asks them for every operand of every float
// operation, before it builds a FloatConst, which copies a rational).
inline bool is_infinity(const ExprStore& store, ExprId id) {
  const Op op = store.op(id);
  return op == Op::PosInf || op == Op::NegInf;
}
inline bool is_float_const(const ExprStore& store, ExprId id) {
  const Op op = store.op(id);
  return op == Op::Const || op == Op::PosInf || op == Op::NegInf ||
         (op == Op::Neg && store.is_neg_zero(id));
}
// The node of a constant (Const, the -0 node, PosInf, NegInf).
ExprId float_const_node(ExprStore& store, const FloatConst& c);

// The layout of a FloatMods format code (1 f16, 2 f32, 3 f64, 4 bf16, 5 tf32); nullopt for 0.
std::optional<IeeeLayout> layout_of_format(uint8_t format);
// A finite nonzero constant below the layout's smallest normal.
bool is_subnormal(const FloatConst& c, IeeeLayout layout);

// `exact` (an exact result) as the device stores it in `mods`' format: itself when representable,
// the overflow value when beyond the largest finite value, a signed zero for an exact zero, the
// flushed zero for a subnormal under .ftz; nullopt when only a rounding could store it. Format 0:
// `exact` itself.
std::optional<FloatConst> round_exact(const FloatConst& exact, FloatMods mods);

// The device's result of each operation on constants, or nullopt when it does not fold (a NaN, a
// result that needs a rounding, an operand that is not a number .ftz would keep).
std::optional<FloatConst> fold_add(const FloatConst& a, const FloatConst& b, FloatMods mods);
std::optional<FloatConst> fold_mul(const FloatConst& a, const FloatConst& b, FloatMods mods);
std::optional<FloatConst> fold_fma(const FloatConst& a, const FloatConst& b, const FloatConst& c,
                                   FloatMods mods);
std::optional<FloatConst> fold_div(const FloatConst& a, const FloatConst& b, FloatMods mods);
FloatConst negated(const FloatConst& a);
FloatConst absolute(const FloatConst& a);
// min/max of two constants with PTX's order, in which -0 is below +0.
FloatConst pick_min_max(const FloatConst& a, const FloatConst& b, bool want_max);

// Whether the device may store an infinity for the float operation `n`, all of whose operands are
// computed from constants alone (no kTaintData below; the caller checks): an operation whose
// operands are constants but whose result needs a rounding is not folded (above), and a chain of
// such operations, or an approximation (ex2 of 200), can exceed the format's range where every
// constant is finite: 2^200 is +inf in f32, and lg2 or 1/x of a product that underflows to 0 is
// an infinity too. Evaluated approximately (long double) with a wide margin: true when the
// value's magnitude may reach a 16th of the format's largest finite value, when a divisor or
// the operand of rcp, rsqrt or lg2 is below 16 times the smallest normal, when the value is not
// a number, or when the subtree is too large to evaluate. False for format 0 (prover-built
// nodes, exact over the reals).
bool constant_may_overflow(const ExprStore& store, const Node& n);

} // namespace volta::symbolic
