#include "engine/symbolic/float_fold.hpp"

#include <cassert>
#include <cmath>

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
    // leaves
  case Op::Input:
  case Op::Param:
  case Op::Undef:
  case Op::RawBits:
  case Op::Ln2:
  // arithmetic over the reals
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div:
  case Op::Fma:
  case Op::Abs:
  case Op::Min:
  case Op::Max:
  case Op::Rcp:
  case Op::Sqrt:
  case Op::Rsqrt:
  case Op::Exp:
  case Op::Ex2:
  case Op::Lg2:
  case Op::Sin:
  case Op::Cos:
  case Op::Tanh:
  case Op::Narrow:
  // predicates and selects over symbolic values
  case Op::Cmp:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
  case Op::Select:
  // bit-level views of symbolic values
  case Op::Pack:
  case Op::Extract:
  case Op::BitOp:
  case Op::AtomicResult:
  // integer data
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg:
  case Op::ICmp:
  // conversions between the types, each its own operator
  case Op::IntToReal:
  case Op::RealToInt:
  case Op::RoundReal:
  case Op::FloatBits:
  case Op::BitsFloat:
  case Op::Fresh:
    return std::nullopt;
  }
  unknown_op(store.op(id)); // a value outside ops.def
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

} // namespace

bool is_subnormal(const FloatConst& c, IeeeLayout layout) {
  return c.kind == FloatConst::Kind::Finite && !c.is_zero() &&
         abs(c.value) < smallest_normal(layout);
}

namespace {

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

namespace {

// a + b rounded by `mods`, the operands taken as they are (fold_add flushes them first; an fma's
// exact product is no operand .ftz flushes).
std::optional<FloatConst> fold_sum(const FloatConst& a, const FloatConst& b, FloatMods mods) {
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

} // namespace

std::optional<FloatConst> fold_add(const FloatConst& a0, const FloatConst& b0, FloatMods mods) {
  return fold_sum(flushed(a0, mods), flushed(b0, mods), mods);
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
  // The product is exact (unrounded) inside an fma: fold it with no format, and never flush it:
  // .ftz flushes the operands and the result only (fuzzer 19:64174: fma.rp.ftz of c, c, c with
  // c*c below the subnormals folded to c, as under .rz).
  const auto product = fold_mul(a, b, FloatMods{});
  if (!product)
    return std::nullopt;
  return fold_sum(*product, c, mods);
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

namespace {

// The approximate value of a constant-only subtree; nullopt where a node has no numeric
// evaluation here (a select, a bit view, an integer) or the budget of nodes is spent.
std::optional<long double> approximate(const ExprStore& s, const Node& n, int& budget);

std::optional<long double> approximate_id(const ExprStore& s, ExprId id, int& budget) {
  if (s.op(id) == Op::Ln2)
    return std::log(2.0L);
  if (is_float_const(s, id)) {
    const FloatConst c = *float_const(s, id);
    if (c.is_inf())
      return c.negative ? -HUGE_VALL : HUGE_VALL;
    return c.negative && c.is_zero() ? -0.0L : static_cast<long double>(to_double(c.value));
  }
  return approximate(s, s.node(id), budget);
}

std::optional<long double> approximate(const ExprStore& s, const Node& n, int& budget) {
  if (--budget < 0)
    return std::nullopt;
  std::optional<long double> x, y, z;
  const int arity = child_count(n.op);
  if (arity >= 1 && !(x = approximate_id(s, n.a, budget)))
    return std::nullopt;
  if (arity >= 2 && !(y = approximate_id(s, n.b, budget)))
    return std::nullopt;
  if (arity >= 3 && !(z = approximate_id(s, n.c, budget)))
    return std::nullopt;
  switch (n.op) {
  case Op::Add:
    return *x + *y;
  case Op::Sub:
    return *x - *y;
  case Op::Mul:
    return *x * *y;
  case Op::Div:
    return *x / *y;
  case Op::Fma:
    return *x * *y + *z;
  case Op::Neg:
    return -*x;
  case Op::Abs:
    return std::fabs(*x);
  case Op::Min:
    return std::fmin(*x, *y);
  case Op::Max:
    return std::fmax(*x, *y);
  case Op::Rcp:
    return 1.0L / *x;
  case Op::Sqrt:
    return std::sqrt(*x);
  case Op::Rsqrt:
    return 1.0L / std::sqrt(*x);
  case Op::Exp:
    return std::exp(*x);
  case Op::Ex2:
    return std::exp2(*x);
  case Op::Lg2:
    return std::log2(*x);
  case Op::Sin:
    return std::sin(*x);
  case Op::Cos:
    return std::cos(*x);
  case Op::Tanh:
    return std::tanh(*x);
  case Op::Narrow:
    return *x;
    // leaves
  case Op::Const:
  case Op::Input:
  case Op::Param:
  case Op::Undef:
  case Op::PosInf:
  case Op::NegInf:
  case Op::RawBits:
  case Op::Ln2:
  // predicates and selects over symbolic values
  case Op::Cmp:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
  case Op::Select:
  // bit-level views of symbolic values
  case Op::Pack:
  case Op::Extract:
  case Op::BitOp:
  case Op::AtomicResult:
  // integer data
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg:
  case Op::ICmp:
  // conversions between the types, each its own operator
  case Op::IntToReal:
  case Op::RealToInt:
  case Op::RoundReal:
  case Op::FloatBits:
  case Op::BitsFloat:
  case Op::Fresh:
    return std::nullopt;
  }
  unknown_op(n.op); // a value outside ops.def
}

} // namespace

bool constant_may_overflow(const ExprStore& store, const Node& n) {
  // A lifted idiom (expf, exp2f, tanhf: f32 instruction sequences) has no format of its own.
  const bool lifted = liftable(n.op) && (n.aux & kLiftedAux);
  const auto layout = layout_of_format(lifted ? kFormatF32 : FloatMods::of(n.aux).format);
  if (!layout)
    return false; // format 0: built by the prover, exact over the reals
  // Neither the roundings of a chain of instructions nor an approximation (ex2.approx: 2^-22)
  // come near a factor of 2; 64 nodes cover the constant chains of unrolled code.
  int budget = 64;
  const auto v = approximate(store, n, budget);
  if (!v || std::isnan(*v))
    return true;
  // A factor 16 below the largest value: also 1/x of an x just under the smallest normal, which
  // .ftz flushes to zero.
  const long double largest = to_double(largest_finite(*layout));
  if (std::fabs(*v) >= largest / 16)
    return true;
  // An operand that may underflow to zero (below 16 times the smallest normal, .ftz or not) makes
  // rcp, rsqrt, a quotient and lg2 infinite on the device, where its real value is finite:
  // lg2(2^-100 * 2^-100) is -inf in f32, not -200.
  const ExprId partial_operand = n.op == Op::Div ? n.b
                                 : (n.op == Op::Rcp || n.op == Op::Rsqrt || n.op == Op::Lg2)
                                     ? n.a
                                     : kNoExpr;
  if (partial_operand != kNoExpr) {
    budget = 64;
    const auto x = approximate_id(store, partial_operand, budget);
    const long double tiny = 16 * std::ldexp(1.0L, 2 - (1 << (layout->exp_bits - 1)));
    if (!x || std::fabs(*x) < tiny)
      return true;
  }
  return false;
}

} // namespace volta::symbolic
