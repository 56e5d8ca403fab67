#include "engine/symbolic/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "engine/symbolic/float_fold.hpp"
#include "engine/symbolic/int_semantics.hpp"
#include "engine/symbolic/post_order.hpp"
#include "support/invariant.hpp"

namespace volta::symbolic {

using Kind = EvalValue::Kind;

namespace {

// An f32 source under .ftz (kRoundFlushes): a subnormal, |q| < 2^-126, reads as zero.
Rational flushed_if(const Rational& q, bool flush) {
  if (!flush || sgn(q) == 0)
    return q;
  const Rational smallest_normal(mpz_class(1), mpz_class(1) << 126);
  return abs(q) < smallest_normal ? Rational(0) : q;
}

long double down(long double x) {
  return std::nextafter(x, -std::numeric_limits<long double>::infinity());
}
long double up(long double x) {
  return std::nextafter(x, std::numeric_limits<long double>::infinity());
}

// An enclosure of a rational: mpq_get_d truncates toward zero, so the value lies between that
// double and the next one away from zero.
Interval around(const Rational& q) {
  const double d = q.get_d();
  if (sgn(q) >= 0)
    return {d, std::nextafter(d, std::numeric_limits<double>::infinity())};
  return {std::nextafter(d, -std::numeric_limits<double>::infinity()), d};
}

// An interval from computed bounds, widened outward by `ulps` units in the last place (one for
// the rounding of + - * /, more for the library's transcendental functions).
EvalValue approx(long double lo, long double hi, int ulps = 1) {
  if (std::isnan(lo) || std::isnan(hi))
    return EvalValue{};
  EvalValue v;
  v.kind = Kind::Approx;
  for (int i = 0; i < ulps; ++i) {
    lo = down(lo);
    hi = up(hi);
  }
  v.approx = {lo, hi};
  return v;
}

EvalValue unknown() {
  return EvalValue{};
}

[[maybe_unused]] bool is_infinite(const EvalValue& v) {
  return v.kind == Kind::PosInf || v.kind == Kind::NegInf;
}

// A product with an infinite factor over the extended reals: ±inf times a value of known sign
// (an exact nonzero number, an interval on one side of 0, an infinity) is an infinity of the
// product's sign; 0 · inf is undefined and a value of unknown sign gives no answer. Causal
// attention's masked score, -inf · scale_log2 · ln2, is -inf this way.
EvalValue infinite_product(const EvalValue& a, const EvalValue& b) {
  VOLTA_ASSERT(is_infinite(a) || is_infinite(b), "called for an infinite operand only");
  auto sign = [](const EvalValue& v) {
    switch (v.kind) {
    case Kind::PosInf:
      return 1;
    case Kind::NegInf:
      return -1;
    case Kind::Exact:
      return sgn(v.exact);
    case Kind::Approx:
      return v.approx.lo > 0 ? 1 : v.approx.hi < 0 ? -1 : 0;
    default:
      return 0;
    }
  };
  const int s = sign(a) * sign(b);
  if (s == 0)
    return unknown();
  return EvalValue{s > 0 ? Kind::PosInf : Kind::NegInf, {}, {}};
}

} // namespace

Interval EvalValue::interval() const {
  switch (kind) {
  case Kind::Exact:
    return around(exact);
  case Kind::Approx:
    return approx;
  case Kind::PosInf:
    return {std::numeric_limits<long double>::infinity(),
            std::numeric_limits<long double>::infinity()};
  case Kind::NegInf:
    return {-std::numeric_limits<long double>::infinity(),
            -std::numeric_limits<long double>::infinity()};
  default:
    return {-std::numeric_limits<long double>::infinity(),
            std::numeric_limits<long double>::infinity()};
  }
}

std::string EvalValue::to_string() const {
  switch (kind) {
  case Kind::Exact:
    return exact.get_str();
  case Kind::Approx: {
    const long double mid = (approx.lo + approx.hi) / 2;
    return fmt::format("{:.12Lg}", mid);
  }
  case Kind::PosInf:
    return "inf";
  case Kind::NegInf:
    return "-inf";
  default:
    return "?";
  }
}

bool certainly_different(const EvalValue& a, const EvalValue& b) {
  if (a.kind == Kind::Unknown || b.kind == Kind::Unknown)
    return false;
  if (a.kind == Kind::Exact && b.kind == Kind::Exact)
    return a.exact != b.exact;
  if ((a.kind == Kind::PosInf || a.kind == Kind::NegInf) && a.kind == b.kind)
    return false;
  const Interval x = a.interval(), y = b.interval();
  return x.hi < y.lo || y.hi < x.lo;
}

EvalValue Evaluator::eval(ExprId node) {
  if (auto it = memo_.find(node); it != memo_.end())
    return it->second;
  post_order(
      store_, node, [&](ExprId id) { return memo_.count(id) != 0; },
      [](ExprId, const Node&) { return true; }, [&](ExprId id) { memo_.emplace(id, compute(id)); });
  return memo_.at(node);
}

bool Evaluator::inexact(ExprId node) {
  if (auto it = inexact_.find(node); it != inexact_.end())
    return it->second;
  VOLTA_ASSERT(memo_.count(node) != 0, "inexact() is asked of nodes eval() has valued");
  post_order(
      store_, node, [&](ExprId id) { return inexact_.count(id) != 0; },
      [](ExprId, const Node&) { return true; },
      [&](ExprId id) { inexact_.emplace(id, device_may_differ(store_.node(id), memo_.at(id))); });
  return inexact_.at(node);
}

bool Evaluator::device_may_differ(const Node& n, const EvalValue& value) const {
  const OpInfo& info = op_info(n.op);
  const ExprId kids[3] = {n.a, n.b, n.c};
  for (uint8_t k = 0; k < info.children; ++k) {
    if (kids[k] != kNoExpr && inexact_.at(kids[k]))
      return true;
  }
  const FloatMods mods = info.float_mods ? FloatMods::of(n.aux) : FloatMods{};
  const auto layout = layout_of_format(mods.format);
  // .ftz flushes a subnormal operand or result: the device's value is not the real one.
  auto flushed = [&](const EvalValue& v) {
    return mods.ftz && layout && v.kind == Kind::Exact &&
           is_subnormal(FloatConst::finite(v.exact), *layout);
  };
  if (info.float_mods && mods.ftz) {
    for (uint8_t k = 0; k < info.children; ++k) {
      if (kids[k] != kNoExpr && flushed(memo_.at(kids[k])))
        return true;
    }
    if (flushed(value))
      return true;
  }
  switch (info.exact) {
  case OpExactness::Always:
  case OpExactness::ByAux: // IntToReal: evaluated as the device rounds it
    return false;
  case OpExactness::Never:
    break;
  }
  if (value.kind == Kind::PosInf || value.kind == Kind::NegInf)
    return false; // an infinite operand's result: the device's too
  if (!info.float_mods || (info.liftable && (n.aux & kLiftedAux)) ||
      mods.mode == FloatMode::Approx || !layout || value.kind != Kind::Exact)
    return true;                                             // no exactly known device value
  return !exact_ieee_bits(value.exact, *layout).has_value(); // rounded, or overflowed
}

namespace {
std::optional<uint64_t> bits_of(const EvalValue& v, uint32_t w);
} // namespace

EvalValue Evaluator::compute(ExprId id) {
  const Node n = store_.node(id);
  auto kid = [&](ExprId k) -> const EvalValue& { return memo_.at(k); };
  auto both_exact = [&](const EvalValue& a, const EvalValue& b) {
    return a.kind == Kind::Exact && b.kind == Kind::Exact;
  };
  auto is_inf = [](const EvalValue& v) { return v.kind == Kind::PosInf || v.kind == Kind::NegInf; };
  switch (n.op) {
  case Op::Const:
    return EvalValue::of(store_.rational(id));
  case Op::Input: {
    auto it = point_.values.find(Assignment::input_key(n.a, n.b));
    return it == point_.values.end() ? EvalValue::of(Rational(0)) : EvalValue::of(it->second);
  }
  case Op::Param: {
    auto it = point_.values.find(Assignment::param_key(n.a));
    return it == point_.values.end() ? EvalValue::of(Rational(0)) : EvalValue::of(it->second);
  }
  case Op::Ln2:
    return approx(0.693147180559945309417232121458176568L, 0.693147180559945309417232121458176568L,
                  2);
  case Op::PosInf:
    return EvalValue{Kind::PosInf, {}, {}};
  case Op::NegInf:
    return EvalValue{Kind::NegInf, {}, {}};
  case Op::Add:
  case Op::Sub:
  case Op::Fma: {
    EvalValue a = kid(n.a), b = kid(n.b);
    if (n.op == Op::Fma) {
      const EvalValue& c = kid(n.c);
      if (both_exact(a, b)) {
        a = EvalValue::of(a.exact * b.exact);
      } else if (is_inf(a) || is_inf(b)) {
        a = infinite_product(a, b);
        if (a.kind == Kind::Unknown)
          return a;
      } else {
        const Interval x = a.interval(), y = b.interval();
        const long double p[4] = {x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi};
        a = approx(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
      }
      b = c;
    }
    if (a.kind == Kind::Unknown || b.kind == Kind::Unknown) {
      // Nothing is known of an unevaluated operand: it may be an infinity of the other sign, or
      // undefined, so even -inf + it is not -inf.
      return unknown();
    }
    if (is_inf(a) || is_inf(b)) {
      const bool neg_b = n.op == Op::Sub;
      const Kind kb = !is_inf(b)                          ? Kind::Unknown
                      : (b.kind == Kind::PosInf) != neg_b ? Kind::PosInf
                                                          : Kind::NegInf;
      if (is_inf(a) && kb != Kind::Unknown && a.kind != kb)
        return unknown();
      return EvalValue{is_inf(a) ? a.kind : kb, {}, {}};
    }
    if (both_exact(a, b))
      return EvalValue::of(n.op == Op::Sub ? Rational(a.exact - b.exact)
                                           : Rational(a.exact + b.exact));
    const Interval x = a.interval(), y = b.interval();
    return n.op == Op::Sub ? approx(x.lo - y.hi, x.hi - y.lo) : approx(x.lo + y.lo, x.hi + y.hi);
  }
  case Op::Mul: {
    const EvalValue &a = kid(n.a), &b = kid(n.b);
    if (both_exact(a, b))
      return EvalValue::of(a.exact * b.exact);
    if (is_inf(a) || is_inf(b))
      return infinite_product(a, b);
    const Interval x = a.interval(), y = b.interval();
    const long double p[4] = {x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi};
    return approx(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
  }
  case Op::Div:
  case Op::Rcp: {
    const EvalValue a = n.op == Op::Rcp ? EvalValue::of(Rational(1)) : kid(n.a);
    const EvalValue& b = n.op == Op::Rcp ? kid(n.a) : kid(n.b);
    if (both_exact(a, b)) {
      if (b.exact == 0)
        return unknown();
      return EvalValue::of(a.exact / b.exact);
    }
    if (is_inf(a) || is_inf(b))
      return unknown();
    const Interval x = a.interval(), y = b.interval();
    if (y.lo <= 0 && y.hi >= 0)
      return unknown();
    const long double p[4] = {x.lo / y.lo, x.lo / y.hi, x.hi / y.lo, x.hi / y.hi};
    return approx(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
  }
  case Op::Narrow: // over the reals, the value itself
    return kid(n.a);
  case Op::Neg: {
    const EvalValue& a = kid(n.a);
    if (a.kind == Kind::Exact)
      return EvalValue::of(-a.exact);
    if (a.kind == Kind::PosInf)
      return EvalValue{Kind::NegInf, {}, {}};
    if (a.kind == Kind::NegInf)
      return EvalValue{Kind::PosInf, {}, {}};
    if (a.kind == Kind::Unknown)
      return a;
    return approx(-a.approx.hi, -a.approx.lo);
  }
  case Op::Abs: {
    const EvalValue& a = kid(n.a);
    if (a.kind == Kind::Exact)
      return EvalValue::of(abs(a.exact));
    if (is_inf(a))
      return EvalValue{Kind::PosInf, {}, {}};
    if (a.kind == Kind::Unknown)
      return a;
    const Interval x = a.approx;
    if (x.lo >= 0)
      return a;
    if (x.hi <= 0)
      return approx(-x.hi, -x.lo);
    return approx(0, std::max(-x.lo, x.hi));
  }
  case Op::Max:
  case Op::Min: {
    const EvalValue &a = kid(n.a), &b = kid(n.b);
    const bool is_max = n.op == Op::Max;
    if (a.kind == Kind::NegInf)
      return is_max ? b : a;
    if (b.kind == Kind::NegInf)
      return is_max ? a : b;
    if (a.kind == Kind::PosInf)
      return is_max ? a : b;
    if (b.kind == Kind::PosInf)
      return is_max ? b : a;
    if (both_exact(a, b))
      return (is_max ? a.exact >= b.exact : a.exact <= b.exact) ? a : b;
    if (a.kind == Kind::Unknown || b.kind == Kind::Unknown)
      return unknown();
    const Interval x = a.interval(), y = b.interval();
    return is_max ? approx(std::max(x.lo, y.lo), std::max(x.hi, y.hi))
                  : approx(std::min(x.lo, y.lo), std::min(x.hi, y.hi));
  }
  case Op::Sin:
  case Op::Cos: {
    // Enclosures of sin and cos: the library's value widened, and [-1, 1] where the argument's
    // interval is too wide for the monotone pieces to matter.
    const EvalValue& a = kid(n.a);
    if (a.kind == Kind::Exact) {
      const long double x = to_double(a.exact);
      const long double y = n.op == Op::Sin ? std::sin(x) : std::cos(x);
      // The argument was rounded to a double: widen by its error (|d sin| <= |dx|) too.
      const long double err = std::fabs(x) * 2.3e-16L + 1e-300L;
      return approx(y - err, y + err, 16);
    }
    return unknown();
  }
  case Op::Exp:
  case Op::Ex2:
  case Op::Sqrt:
  case Op::Rsqrt:
  case Op::Tanh:
  case Op::Lg2: {
    const EvalValue& a = kid(n.a);
    if (a.kind == Kind::Exact && a.exact == 0 && (n.op == Op::Exp || n.op == Op::Ex2))
      return EvalValue::of(Rational(1));
    if (a.kind == Kind::NegInf && (n.op == Op::Exp || n.op == Op::Ex2))
      return EvalValue::of(Rational(0));
    if (a.kind == Kind::Unknown || is_inf(a))
      return unknown();
    const Interval x = a.interval();
    switch (n.op) {
    case Op::Exp:
      return approx(std::exp(x.lo), std::exp(x.hi), 8);
    case Op::Ex2:
      return approx(std::exp2(x.lo), std::exp2(x.hi), 8);
    case Op::Sqrt:
      return x.lo < 0 ? unknown() : approx(std::sqrt(x.lo), std::sqrt(x.hi), 2);
    case Op::Rsqrt:
      return x.lo <= 0 ? unknown() : approx(1 / std::sqrt(x.hi), 1 / std::sqrt(x.lo), 4);
    case Op::Tanh:
      return approx(std::tanh(x.lo), std::tanh(x.hi), 8);
      // leaves
    case Op::Const:
    case Op::Input:
    case Op::Param:
    case Op::Undef:
    case Op::PosInf:
    case Op::NegInf:
    case Op::RawBits:
    case Op::Ln2:
    // arithmetic over the reals
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Fma:
    case Op::Neg:
    case Op::Abs:
    case Op::Min:
    case Op::Max:
    case Op::Rcp:
    case Op::Sin:
    case Op::Cos:
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
      // Not reached: the enclosing case admits only the functions above. Unknown is always a
      // sound answer.
      return unknown();
    case Op::Lg2:
      return x.lo <= 0 ? unknown() : approx(std::log2(x.lo), std::log2(x.hi), 8);
    }
    unknown_op(n.op); // a value outside ops.def
  }
  case Op::Cmp: {
    const EvalValue &a = kid(n.a), &b = kid(n.b);
    int order;
    if (both_exact(a, b)) {
      order = a.exact < b.exact ? -1 : a.exact == b.exact ? 0 : 1;
    } else if (is_inf(a) && a.kind == b.kind) {
      order = 0; // -inf == -inf: a fully masked row's running maximum against its start
    } else {
      if (a.kind == Kind::Unknown || b.kind == Kind::Unknown)
        return unknown();
      const Interval x = a.interval(), y = b.interval();
      if (x.hi < y.lo) {
        order = -1;
      } else if (y.hi < x.lo) {
        order = 1;
      } else {
        return unknown();
      }
    }
    bool r = false;
    switch (static_cast<CmpKind>(n.aux & 7)) {
    case CmpKind::Eq:
      r = order == 0;
      break;
    case CmpKind::Ne:
      r = order != 0;
      break;
    case CmpKind::Lt:
      r = order < 0;
      break;
    case CmpKind::Le:
      r = order <= 0;
      break;
    case CmpKind::Gt:
      r = order > 0;
      break;
    case CmpKind::Ge:
      r = order >= 0;
      break;
    }
    return EvalValue::of(Rational(r ? 1 : 0));
  }
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not: {
    const EvalValue& a = kid(n.a);
    if (a.kind != Kind::Exact)
      return unknown();
    const bool x = a.exact != 0;
    if (n.op == Op::Not)
      return EvalValue::of(Rational(x ? 0 : 1));
    const EvalValue& b = kid(n.b);
    if (b.kind != Kind::Exact)
      return unknown();
    const bool y = b.exact != 0;
    const bool r = n.op == Op::And ? (x && y) : n.op == Op::Or ? (x || y) : (x != y);
    return EvalValue::of(Rational(r ? 1 : 0));
  }
  case Op::Select: {
    const EvalValue& c = kid(n.a);
    if (c.kind != Kind::Exact)
      return unknown();
    return c.exact != 0 ? kid(n.b) : kid(n.c);
  }
  case Op::FloatBits: {
    // The integer view of an input element is a symbol of its own; other bits of floats are
    // not evaluated (the reals have no bit patterns).
    const Node& x = store_.node(n.a);
    if (x.op != Op::Input)
      return unknown();
    auto it = point_.values.find(Assignment::int_input_key(x.a, x.b, n.aux));
    return it == point_.values.end() ? EvalValue::of(Rational(0)) : EvalValue::of(it->second);
  }
  case Op::BitsFloat: {
    // Integer bits read as a float: the IEEE value of the bits (a NaN is not evaluated).
    const uint32_t w = n.aux == kFormatBF16 ? 16u : 8u << n.aux;
    const auto bits = bits_of(kid(n.a), w);
    if (!bits)
      return unknown();
    FloatClass cls;
    std::optional<Rational> value;
    switch (n.aux) {
    case 1:
      cls = classify_f16_bits(static_cast<uint16_t>(*bits));
      value = rational_from_f16_bits(static_cast<uint16_t>(*bits));
      break;
    case 2:
      cls = classify_f32_bits(static_cast<uint32_t>(*bits));
      value = rational_from_f32_bits(static_cast<uint32_t>(*bits));
      break;
    case 3:
      cls = classify_f64_bits(*bits);
      value = rational_from_f64_bits(*bits);
      break;
    default:
      cls = classify_bf16_bits(static_cast<uint16_t>(*bits));
      value = rational_from_bf16_bits(static_cast<uint16_t>(*bits));
      break;
    }
    if (cls == FloatClass::PosInf || cls == FloatClass::NegInf)
      return EvalValue{cls == FloatClass::PosInf ? Kind::PosInf : Kind::NegInf, {}, {}};
    if (cls == FloatClass::Finite && value)
      return EvalValue::of(*value);
    return unknown();
  }
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg:
  case Op::ICmp:
  case Op::BitOp:
  case Op::IntToReal:
  case Op::RealToInt:
  case Op::RoundReal:
    return integer(n);
  case Op::Undef:
  case Op::RawBits:
  case Op::Pack:
  case Op::Extract:
  case Op::AtomicResult:
  case Op::Fresh:
    return unknown(); // sin, cos, bit-level values: not evaluated
  }
  unknown_op(n.op); // a value outside ops.def
}

namespace {
// An exact integral value as the unsigned integer of `w` bits it stands for.
std::optional<uint64_t> bits_of(const EvalValue& v, uint32_t w) {
  if (v.kind != Kind::Exact || v.exact.get_den() != 1)
    return std::nullopt;
  mpz_class u = v.exact.get_num() % (mpz_class(1) << w);
  if (u < 0)
    u += mpz_class(1) << w;
  uint64_t bits = 0;
  mpz_export(&bits, nullptr, -1, sizeof(bits), 0, 0, u.get_mpz_t());
  return bits;
}
EvalValue of_bits(uint64_t bits) {
  return EvalValue::of(Rational(std::to_string(bits)));
}
} // namespace

// Integer operations and conversions, bit-exact (engine/symbolic/int_semantics.hpp).
EvalValue Evaluator::integer(const Node& n) {
  auto kid = [&](ExprId k) -> const EvalValue& { return memo_.at(k); };
  switch (n.op) {
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg: {
    const uint32_t w = 8u << n.aux;
    const auto a = bits_of(kid(n.a), w);
    const auto b = n.op == Op::INeg ? std::optional<uint64_t>(0) : bits_of(kid(n.b), w);
    if (!a || !b)
      return unknown();
    const uint64_t r = n.op == Op::IAdd ? *a + *b : n.op == Op::IMul ? *a * *b : uint64_t{0} - *a;
    return of_bits(r & width_mask(w));
  }
  case Op::ICmp: {
    const uint32_t w = 8u << (n.aux >> 4);
    const auto a = bits_of(kid(n.a), w), b = bits_of(kid(n.b), w);
    if (!a || !b)
      return unknown();
    return EvalValue::of(
        Rational(eval_icmp(static_cast<CmpKind>(n.aux & 7), (n.aux & 8) != 0, w, *a, *b) ? 1 : 0));
  }
  case Op::BitOp: {
    const auto kind = static_cast<BitOpKind>(n.aux & 31);
    const IntType type = IntType::from_code(static_cast<uint8_t>(n.aux >> 5));
    if (kind == BitOpKind::Tuple || kind == BitOpKind::Other)
      return unknown();
    uint32_t operand_width = type.width();
    ExprId c = n.c, d = kNoExpr;
    if (kind == BitOpKind::Ext || kind == BitOpKind::ExtSat) {
      const auto ow = bits_of(kid(n.c), 64);
      if (!ow)
        return unknown();
      operand_width = static_cast<uint32_t>(*ow);
      c = kNoExpr;
    } else if (c != kNoExpr && store_.op(c) == Op::BitOp &&
               static_cast<BitOpKind>(store_.node(c).aux & 31) == BitOpKind::Tuple) {
      d = store_.node(c).b;
      c = store_.node(c).a;
    }
    uint64_t v[4] = {0, 0, 0, 0};
    const ExprId ops[4] = {n.a, n.b, c, d};
    for (int i = 0; i < 4; ++i) {
      if (ops[i] == kNoExpr)
        continue;
      const auto bits = bits_of(kid(ops[i]), 64);
      if (!bits)
        return unknown();
      v[i] = *bits;
    }
    const auto r = eval_bitop(kind, type, operand_width, v[0], v[1], v[2], v[3]);
    return r ? of_bits(*r) : unknown();
  }
  case Op::IntToReal: {
    const IntType t = IntType::from_code(n.aux & 7);
    const auto a = bits_of(kid(n.a), t.width());
    if (!a)
      return unknown();
    const mpz_class z = t.is_signed ? mpz_class(std::to_string(sign_extend(*a, t.width())))
                                    : mpz_class(std::to_string(*a));
    const auto r = round_integer_to_format(z, static_cast<FloatFormat>((n.aux >> 3) & 3),
                                           static_cast<RoundKind>((n.aux >> 5) & 3));
    if (!r) {
      // Overflow: an infinity, or the largest finite value, by the rounding (IEEE 754 §7.4).
      const auto rounding = static_cast<RoundKind>((n.aux >> 5) & 3);
      const bool negative = z < 0;
      const bool to_inf = rounding == RoundKind::NearestEven ||
                          (rounding == RoundKind::Down && negative) ||
                          (rounding == RoundKind::Up && !negative);
      if (to_inf)
        return EvalValue{negative ? Kind::NegInf : Kind::PosInf, {}, {}};
      const int p = format_precision(static_cast<FloatFormat>((n.aux >> 3) & 3));
      const int emax = format_max_exponent(static_cast<FloatFormat>((n.aux >> 3) & 3));
      const mpz_class largest = ((mpz_class(1) << p) - 1) << (emax - p + 1);
      return EvalValue::of(Rational(negative ? mpz_class(-largest) : largest));
    }
    return EvalValue::of(Rational(*r));
  }
  case Op::RealToInt: {
    const IntType t = IntType::from_code(n.aux & 7);
    const EvalValue& a = kid(n.a);
    if (inexact(n.a))
      return unknown(); // the device rounds another value (Evaluator::inexact)
    const uint32_t w = t.width();
    const mpz_class lo = t.is_signed ? -(mpz_class(1) << (w - 1)) : mpz_class(0);
    const mpz_class hi = t.is_signed ? (mpz_class(1) << (w - 1)) - 1 : (mpz_class(1) << w) - 1;
    mpz_class z;
    if (a.kind == Kind::PosInf) {
      z = hi;
    } else if (a.kind == Kind::NegInf) {
      z = lo;
    } else if (a.kind == Kind::Exact) {
      z = round_rational(flushed_if(a.exact, rounding_flushes(n.aux)), real_to_int_rounding(n.aux));
      z = z < lo ? lo : (z > hi ? hi : z);
    } else {
      return unknown();
    }
    return bits_of(EvalValue::of(Rational(z)), w).has_value()
               ? of_bits(*bits_of(EvalValue::of(Rational(z)), w))
               : unknown();
  }
  case Op::RoundReal: {
    const EvalValue& a = kid(n.a);
    if (inexact(n.a))
      return unknown(); // the device rounds another value (Evaluator::inexact)
    if (a.kind == Kind::PosInf || a.kind == Kind::NegInf)
      return a;
    if (a.kind != Kind::Exact)
      return unknown();
    return EvalValue::of(Rational(
        round_rational(flushed_if(a.exact, rounding_flushes(n.aux)), round_real_rounding(n.aux))));
  }
    // leaves
  case Op::Const:
  case Op::Input:
  case Op::Param:
  case Op::Undef:
  case Op::PosInf:
  case Op::NegInf:
  case Op::RawBits:
  case Op::Ln2:
  // arithmetic over the reals
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div:
  case Op::Fma:
  case Op::Neg:
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
  case Op::AtomicResult:
  // conversions between the types, each its own operator
  case Op::FloatBits:
  case Op::BitsFloat:
  case Op::Fresh:
    return unknown();
  }
  unknown_op(n.op); // a value outside ops.def
}

uint64_t Assignment::key_of(const ExprStore& store, ExprId leaf) {
  const Node& n = store.node(leaf);
  if (n.op == Op::Param)
    return param_key(n.a);
  if (n.op == Op::FloatBits) {
    const Node& x = store.node(n.a);
    return int_input_key(x.a, x.b, n.aux);
  }
  return input_key(n.a, n.b);
}

std::optional<uint32_t> integer_leaf_width(const ExprStore& store, ExprId leaf) {
  const Node& n = store.node(leaf);
  if (n.op != Op::FloatBits)
    return std::nullopt;
  return n.aux == kFormatBF16 ? 16u : 8u << n.aux;
}

std::vector<ExprId> leaves_below(const ExprStore& store, const std::vector<ExprId>& roots) {
  std::vector<ExprId> leaves;
  std::unordered_map<ExprId, bool> seen;
  std::vector<ExprId> stack(roots.begin(), roots.end());
  while (!stack.empty()) {
    const ExprId id = stack.back();
    stack.pop_back();
    if (!seen.emplace(id, true).second)
      continue;
    const Node& n = store.node(id);
    if (n.op == Op::Input || n.op == Op::Param ||
        (n.op == Op::FloatBits && store.op(n.a) == Op::Input)) {
      leaves.push_back(id);
      continue;
    }
    const ExprId kids[3] = {n.a, n.b, n.c};
    for (int i = 0; i < child_count(n.op); ++i) {
      if (kids[i] != kNoExpr)
        stack.push_back(kids[i]);
    }
  }
  std::sort(leaves.begin(), leaves.end(), [&](ExprId x, ExprId y) {
    const Node &a = store.node(x), &b = store.node(y);
    if (a.op != b.op)
      return a.op < b.op;
    if (a.op == Op::FloatBits)
      return std::make_tuple(store.node(a.a).a, store.node(a.a).b, a.aux) <
             std::make_tuple(store.node(b.a).a, store.node(b.a).b, b.aux);
    if (a.a != b.a)
      return a.a < b.a;
    return a.b < b.b;
  });
  return leaves;
}

} // namespace volta::symbolic
