#include "engine/symbolic/float_fold.hpp"

#include <cassert>

namespace volta::symbolic {

using Kind = FloatConst::Kind;

std::optional<FloatConst> float_const(const ExprStore& store, ExprId id) {
  // The operator from the dense meta array first: every float operation asks, for every operand.
  switch (store.op(id)) {
  case Op::Const:
    return FloatConst::finite(store.rational(id));
  case Op::PosInf:
    return FloatConst::inf(false);
  case Op::NegInf:
    return FloatConst::inf(true);
  case Op::Neg:
    if (store.is_neg_zero(id))
      return FloatConst::finite(Rational(0), true);
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

ExprId float_const_node(ExprStore& store, const FloatConst& c) {
  switch (c.kind) {
  case Kind::PosInf:
    return store.pos_inf();
  case Kind::NegInf:
    return store.neg_inf();
  case Kind::Finite:
    break;
  }
  if (c.is_zero() && c.negative)
    return store.neg_zero();
  return store.constant(c.value);
}

std::optional<IeeeLayout> layout_of_format(uint8_t format) {
  switch (format) {
  case 1:
    return IeeeLayout{5, 10};
  case 2:
    return IeeeLayout{8, 23};
  case 3:
    return IeeeLayout{11, 52};
  case kFormatBF16:
    return IeeeLayout{8, 7};
  case 5:
    return IeeeLayout{8, 10};
  default:
    return std::nullopt;
  }
}

namespace {

Rational smallest_normal(IeeeLayout layout) {
  const long emin = 2 - (1L << (layout.exp_bits - 1));
  return Rational(mpz_class(1), mpz_class(1) << static_cast<mp_bitcnt_t>(-emin));
}

bool is_subnormal(const FloatConst& c, IeeeLayout layout) {
  return c.kind == Kind::Finite && !c.is_zero() && abs(c.value) < smallest_normal(layout);
}

// The operand as the device reads it: .ftz reads a subnormal f32/f16/bf16 input as a zero of its
// sign (f64 has no .ftz).
FloatConst flushed(const FloatConst& c, FloatMods mods) {
  const auto layout = layout_of_format(mods.format);
  if (mods.ftz && layout && mods.format != 3 && is_subnormal(c, *layout))
    return FloatConst::finite(Rational(0), c.negative);
  return c;
}

bool rounds_down(FloatMods mods) {
  return mods.mode == FloatMode::Rm;
}

} // namespace

std::optional<FloatConst> round_exact(const FloatConst& exact, FloatMods mods) {
  const auto layout = layout_of_format(mods.format);
  if (!layout || exact.is_inf() || exact.is_zero())
    return exact;
  if (mods.ftz && mods.format != 3 && is_subnormal(exact, *layout))
    return FloatConst::finite(Rational(0), exact.negative);
  const Rational largest = largest_finite(*layout);
  const Rational magnitude = abs(exact.value);
  if (magnitude > largest) {
    // IEEE 754 §7.4: to nearest, an infinity from half an ulp above the largest value on;
    // toward zero the largest value; toward -inf/+inf an infinity on the side rounded away.
    const Rational ulp(mpz_class(1) << static_cast<mp_bitcnt_t>(
                           ((1L << (layout->exp_bits - 1)) - 1) - layout->frac_bits));
    bool to_inf = false;
    switch (mods.mode) {
    case FloatMode::Rz:
      to_inf = false;
      break;
    case FloatMode::Rm:
      to_inf = exact.negative;
      break;
    case FloatMode::Rp:
      to_inf = !exact.negative;
      break;
    default: // Default, Rn, Approx, Full, Unspecified-with-format: to nearest
      if (magnitude < largest + ulp / 2)
        return FloatConst::finite(exact.negative ? Rational(-largest) : largest);
      to_inf = true;
      break;
    }
    if (to_inf)
      return FloatConst::inf(exact.negative);
    return FloatConst::finite(exact.negative ? Rational(-largest) : largest);
  }
  if (!exact_ieee_bits(exact.value, *layout))
    return std::nullopt; // a rounding: not folded
  return exact;
}

std::optional<FloatConst> fold_add(const FloatConst& a0, const FloatConst& b0, FloatMods mods) {
  const FloatConst a = flushed(a0, mods), b = flushed(b0, mods);
  if (a.is_inf() || b.is_inf()) {
    if (a.is_inf() && b.is_inf() && a.kind != b.kind)
      return std::nullopt; // inf - inf: NaN (a domain condition, never folded)
    return a.is_inf() ? a : b;
  }
  const Rational sum = a.value + b.value;
  if (sgn(sum) == 0) {
    // IEEE 754 §6.3: (-0) + (-0) is -0; any other exact zero sum is +0, or -0 rounding down.
    const bool negative =
        (a.is_zero() && b.is_zero())
            ? (a.negative && b.negative) || (rounds_down(mods) && (a.negative || b.negative))
            : rounds_down(mods);
    return FloatConst::finite(Rational(0), negative);
  }
  return round_exact(FloatConst::finite(sum), mods);
}

std::optional<FloatConst> fold_mul(const FloatConst& a0, const FloatConst& b0, FloatMods mods) {
  const FloatConst a = flushed(a0, mods), b = flushed(b0, mods);
  const bool negative = a.negative != b.negative;
  if (a.is_inf() || b.is_inf()) {
    if (a.is_zero() || b.is_zero())
      return std::nullopt; // 0 * inf: NaN
    return FloatConst::inf(negative);
  }
  const Rational product = a.value * b.value;
  if (sgn(product) == 0)
    return FloatConst::finite(Rational(0), negative);
  return round_exact(FloatConst::finite(product), mods);
}

std::optional<FloatConst> fold_fma(const FloatConst& a0, const FloatConst& b0, const FloatConst& c0,
                                   FloatMods mods) {
  const FloatConst a = flushed(a0, mods), b = flushed(b0, mods), c = flushed(c0, mods);
  // The product is exact (unrounded) inside an fma: fold it with no format.
  const auto product = fold_mul(a, b, FloatMods{});
  if (!product)
    return std::nullopt;
  return fold_add(*product, c, mods);
}

std::optional<FloatConst> fold_div(const FloatConst& a0, const FloatConst& b0, FloatMods mods) {
  const FloatConst a = flushed(a0, mods), b = flushed(b0, mods);
  const bool negative = a.negative != b.negative;
  if (b.is_zero())
    return std::nullopt; // division by zero: a domain condition (0/0 is NaN, x/0 an infinity)
  if (a.is_inf() && b.is_inf())
    return std::nullopt; // inf / inf: NaN
  if (a.is_inf())
    return FloatConst::inf(negative);
  if (b.is_inf())
    return FloatConst::finite(Rational(0), negative);
  const Rational quotient = a.value / b.value;
  if (sgn(quotient) == 0)
    return FloatConst::finite(Rational(0), negative);
  return round_exact(FloatConst::finite(quotient), mods);
}

FloatConst negated(const FloatConst& a) {
  switch (a.kind) {
  case Kind::PosInf:
    return FloatConst::inf(true);
  case Kind::NegInf:
    return FloatConst::inf(false);
  case Kind::Finite:
    break;
  }
  return FloatConst::finite(Rational(-a.value), a.is_zero() && !a.negative);
}

FloatConst absolute(const FloatConst& a) {
  if (a.is_inf())
    return FloatConst::inf(false);
  return FloatConst::finite(abs(a.value));
}

FloatConst pick_min_max(const FloatConst& a, const FloatConst& b, bool want_max) {
  auto rank = [](const FloatConst& c) -> int {
    return c.kind == Kind::NegInf ? -1 : c.kind == Kind::PosInf ? 1 : 0;
  };
  if (rank(a) != rank(b))
    return (rank(a) > rank(b)) == want_max ? a : b;
  if (a.is_inf())
    return a;
  if (a.value == b.value) {
    if (a.negative == b.negative)
      return a;
    // -0 is below +0 (PTX min/max)
    const FloatConst& positive = a.negative ? b : a;
    const FloatConst& negative = a.negative ? a : b;
    return want_max ? positive : negative;
  }
  return (a.value > b.value) == want_max ? a : b;
}

} // namespace volta::symbolic
