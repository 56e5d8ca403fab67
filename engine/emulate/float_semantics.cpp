// Compiled with -frounding-math (engine/CMakeLists.txt): the compiler must neither fold nor
// move floating-point operations across the fesetround calls.
#include "engine/emulate/float_semantics.hpp"

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

#include "support/invariant.hpp"
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace volta::emulate {

namespace {

struct Spec {
  int p;    // significand bits, hidden bit included
  int emin; // exponent of the smallest normal number
  int emax; // exponent of the largest finite number
};

Spec spec_of(FloatFormat f) {
  switch (f) {
  case FloatFormat::F16:
    return {11, -14, 15};
  case FloatFormat::BF16:
    return {8, -126, 127};
  case FloatFormat::F32:
    return {24, -126, 127};
  case FloatFormat::F64:
    break;
  }
  return {53, -1022, 1023};
}

thread_local RealArithmeticEvents t_events;

// 2^(emax + 1): a real at least this large overflows in every rounding mode (the directed
// modes round it to the largest finite value instead of an infinity).
double overflow_threshold(FloatFormat f) {
  switch (f) { // 2^(emax + 1), as constants: record() runs on every emulated float operation
  case FloatFormat::F16:
    return 0x1p16;
  case FloatFormat::BF16:
  case FloatFormat::F32:
    return 0x1p128;
  case FloatFormat::F64:
    break;
  }
  return std::numeric_limits<double>::infinity(); // 2^1024 overflows
}

// Records one operation over the reals. `exact` is its result as the double computation gives
// it: exact, rounded to odd (never representable in a narrower format when inexact), or a C
// library value for the approximate functions; `rounded` is the format's result. An operand
// that is NaN makes a NaN that is no event (propagation); an infinite operand makes no
// division by zero (inf / 2 is inf over the extended reals too).
void record(FloatFormat f, bool nan_operand, bool finite_operands, bool zero_divisor, double exact,
            double rounded) {
  if (nan_operand)
    return;
  RealArithmeticEvents& e = t_events;
  if (std::isnan(rounded)) {
    ++e.invalid;
  } else if (std::isinf(exact)) {
    if (finite_operands)
      ++(zero_divisor ? e.division_by_zero : e.overflow);
  } else if (std::isinf(rounded) || std::fabs(exact) >= overflow_threshold(f)) {
    ++e.overflow;
  } else if (exact != 0.0 && rounded == 0.0) {
    ++e.underflow;
  } else if (exact != rounded) {
    ++e.inexact;
  }
}

int host_mode(RoundMode m) {
  switch (m) {
  case RoundMode::TowardZero:
    return FE_TOWARDZERO;
  case RoundMode::Down:
    return FE_DOWNWARD;
  case RoundMode::Up:
    return FE_UPWARD;
  case RoundMode::NearestEven:
    break;
  }
  return FE_TONEAREST;
}

// Runs `fn` with the host rounding mode `mode`; restores the previous mode.
template <class Fn>
double with_mode(int mode, Fn fn) {
  const int old = std::fegetround();
  std::fesetround(mode);
  volatile double r = fn();
  std::fesetround(old);
  return r;
}

// `fn` computed in double with round-to-odd: truncate, and set the last significand bit when
// the exact result was not representable.
template <class Fn>
double round_to_odd(Fn fn) {
  const int old = std::fegetround();
  std::fesetround(FE_TOWARDZERO);
  std::feclearexcept(FE_INEXACT);
  volatile double r = fn();
  const bool inexact = std::fetestexcept(FE_INEXACT) != 0;
  std::fesetround(old);
  double out = r;
  if (inexact && std::isfinite(out) && out != 0.0)
    out = std::bit_cast<double>(std::bit_cast<uint64_t>(out) | 1u);
  return out;
}

// Rounds an integral-or-not double `s` to an integer with the mode (s is below 2^53 in
// magnitude, so its fraction is exact).
// x + y rounded to odd without touching the floating-point environment (the fenv calls of
// round_to_odd cost more than the emulated instruction), or NaN where round_to_odd must decide
// (a NaN, infinite or overflowing sum). The host is in round-to-nearest here, as everywhere
// outside with_mode and round_to_odd: s = x + y is the nearest double and TwoSum (Knuth) gives
// the exact error, so the sum toward zero is s, or its neighbour toward zero when the error
// points there; an inexact nonzero result then gets its last bit set, as round_to_odd does.
double sum_rounded_to_odd(double x, double y) {
  const volatile double s = x + y;
  if (!std::isfinite(s))
    return std::numeric_limits<double>::quiet_NaN();
  const volatile double yv = s - x;
  const volatile double xv = s - yv;
  const double err = (x - xv) + (y - yv);
  if (err == 0.0)
    return s;
  const double toward_zero = (err > 0.0) == (s > 0.0) ? double{s} : std::nextafter(s, 0.0);
  if (toward_zero == 0.0)
    return toward_zero;
  return std::bit_cast<double>(std::bit_cast<uint64_t>(toward_zero) | 1u);
}

// The sign of an exactly zero sum x + y, fma's included with x its exact product (IEEE 754
// §6.3): two zeros of one sign keep it; any other exact zero is +0, or -0 when rounding down.
// The host's round-to-nearest addition above gives +0 for all of these, whatever the mode.
double exact_zero_sum(double x, double y, RoundMode mode) {
  if (x == 0.0 && y == 0.0 && std::signbit(x) == std::signbit(y))
    return x;
  return mode == RoundMode::Down ? -0.0 : 0.0;
}

double round_scaled(double s, RoundMode mode) {
  switch (mode) {
  case RoundMode::TowardZero:
    return std::trunc(s);
  case RoundMode::Down:
    return std::floor(s);
  case RoundMode::Up:
    return std::ceil(s);
  case RoundMode::NearestEven:
    break;
  }
  const double fl = std::floor(s);
  const double diff = s - fl; // exact
  if (diff > 0.5)
    return fl + 1;
  if (diff < 0.5)
    return fl;
  return std::fmod(fl, 2.0) == 0.0 ? fl : fl + 1;
}

// x rounded to the precision and range of `spec` (the result is a double that the format can
// represent exactly, or an infinity).
double round_to_format(double x, Spec spec, RoundMode mode) {
  if (x == 0.0 || !std::isfinite(x))
    return x;
  int e = 0;
  (void)std::frexp(x, &e); // x = m * 2^e with 0.5 <= |m| < 1
  const int exponent = std::max(e - 1, spec.emin);
  const int quantum = exponent - (spec.p - 1);
  const double r = std::ldexp(round_scaled(std::ldexp(x, -quantum), mode), quantum);
  const double max_finite = std::ldexp(2.0 - std::ldexp(1.0, 1 - spec.p), spec.emax);
  if (std::fabs(r) > max_finite) {
    const bool to_inf = mode == RoundMode::NearestEven || (mode == RoundMode::Up && r > 0) ||
                        (mode == RoundMode::Down && r < 0);
    const double inf = std::numeric_limits<double>::infinity();
    return to_inf ? std::copysign(inf, r) : std::copysign(max_finite, r);
  }
  if (r == 0.0)
    return std::copysign(0.0, x);
  return r;
}

// The encoding of x rounded to a narrower format (p significand bits, normal exponents
// [emin, emax], bias emax) straight from its bits, or -1 where the slow path must decide: x zero,
// subnormal, infinite or NaN, or its exponent outside [emin, emax] (the result may be subnormal
// or overflow past the carry handled here). It equals round_to_format followed by the format's
// encoding bit for bit: the kept significand bits are x's leading ones and the increment is the
// rounding of the dropped ones; a carry out of the significand moves into the exponent field,
// which for E = emax gives the infinity that rounding sends there. No floating-point operation
// runs, so the host rounding mode plays no part. This is the emulator's hottest conversion
// (every f32/f16 result, float immediate and generated input goes through encode).
int64_t narrow_bits(double x, int p, int emin, int emax, RoundMode mode) {
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  const uint64_t biased = (bits >> 52) & 0x7ff;
  const int e = static_cast<int>(biased) - 1023;
  if (biased == 0 || biased == 0x7ff || e < emin || e > emax)
    return -1;
  const bool negative = (bits >> 63) != 0;
  const int drop = 52 - (p - 1);
  const uint64_t m = bits & ((uint64_t{1} << 52) - 1);
  const uint64_t kept = m >> drop;
  const uint64_t rest = m & ((uint64_t{1} << drop) - 1);
  const uint64_t half = uint64_t{1} << (drop - 1);
  bool up = false;
  switch (mode) {
  case RoundMode::NearestEven:
    up = rest > half || (rest == half && (kept & 1u) != 0);
    break;
  case RoundMode::TowardZero:
    break;
  case RoundMode::Up:
    up = !negative && rest != 0;
    break;
  case RoundMode::Down:
    up = negative && rest != 0;
    break;
  }
  const uint64_t magnitude = ((static_cast<uint64_t>(e + emax) << (p - 1)) | kept) + (up ? 1u : 0u);
  const int width = p == 24 ? 32 : 16;
  return static_cast<int64_t>((negative ? uint64_t{1} << (width - 1) : 0) | magnitude);
}

uint16_t half_bits_exact(double v) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::fabs(v);
  if (std::isinf(a))
    return sign | 0x7c00;
  if (a == 0.0)
    return sign;
  int e = 0;
  (void)std::frexp(a, &e);
  const int exponent = e - 1;
  if (exponent < -14) { // subnormal: a = mantissa * 2^-24
    return sign | static_cast<uint16_t>(std::ldexp(a, 24));
  }
  const auto mant = static_cast<uint16_t>(std::ldexp(a, -exponent) * 1024.0 - 1024.0);
  return sign | static_cast<uint16_t>((exponent + 15) << 10) | mant;
}

double half_value(uint16_t h) {
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
  if (exp != 0 && exp != 0x1f) // a normal number: its double's bits directly (exact)
    return std::bit_cast<double>((uint64_t{h & 0x8000u} << 48) |
                                 (static_cast<uint64_t>(exp - 15 + 1023) << 52) |
                                 (static_cast<uint64_t>(mant) << 42));
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exp == 0x1f)
    return mant ? std::numeric_limits<double>::quiet_NaN()
                : sign * std::numeric_limits<double>::infinity();
  if (exp == 0)
    return sign * std::ldexp(mant, -24);
  return sign * std::ldexp(1024 + mant, exp - 25);
}

} // namespace

uint32_t format_bits(FloatFormat f) {
  switch (f) {
  case FloatFormat::F16:
  case FloatFormat::BF16:
    return 16;
  case FloatFormat::F32:
    return 32;
  case FloatFormat::F64:
    break;
  }
  return 64;
}

double decode(FloatFormat f, uint64_t bits) {
  switch (f) {
  case FloatFormat::F16:
    return half_value(static_cast<uint16_t>(bits));
  case FloatFormat::BF16:
    return std::bit_cast<float>(static_cast<uint32_t>(bits & 0xffff) << 16);
  case FloatFormat::F32:
    return std::bit_cast<float>(static_cast<uint32_t>(bits));
  case FloatFormat::F64:
    break;
  }
  return std::bit_cast<double>(bits);
}

uint64_t canonical_nan(FloatFormat f) {
  switch (f) {
  case FloatFormat::F16:
  case FloatFormat::BF16:
    return 0x7fff;
  case FloatFormat::F32:
    return 0x7fffffff;
  case FloatFormat::F64:
    break;
  }
  return 0x7fffffffffffffffull;
}

uint64_t encode(FloatFormat f, double x, RoundMode mode) {
  if (std::isnan(x))
    return canonical_nan(f);
  if (f == FloatFormat::F64)
    return std::bit_cast<uint64_t>(x);
  const Spec spec = spec_of(f);
  if (const int64_t fast = narrow_bits(x, spec.p, spec.emin, spec.emax, mode); fast >= 0)
    return static_cast<uint64_t>(fast);
  const double r = round_to_format(x, spec, mode);
  switch (f) {
  case FloatFormat::F16:
    return half_bits_exact(r);
  case FloatFormat::BF16:
    return std::bit_cast<uint32_t>(static_cast<float>(r)) >> 16; // exact: r fits bf16
  default:
    return std::bit_cast<uint32_t>(static_cast<float>(r)); // exact: r fits f32
  }
}

bool is_nan(FloatFormat f, uint64_t bits) {
  return std::isnan(decode(f, bits));
}

bool is_subnormal(FloatFormat f, uint64_t bits) {
  // A zero exponent field and a nonzero significand (on every .ftz instruction: no decode).
  switch (f) {
  case FloatFormat::F16:
    return (bits & 0x7c00) == 0 && (bits & 0x3ff) != 0;
  case FloatFormat::BF16:
    return (bits & 0x7f80) == 0 && (bits & 0x7f) != 0;
  case FloatFormat::F32:
    return (bits & 0x7f800000) == 0 && (bits & 0x7fffff) != 0;
  case FloatFormat::F64:
    break;
  }
  return (bits & 0x7ff0000000000000ull) == 0 && (bits & 0xfffffffffffffull) != 0;
}

uint64_t flush(FloatFormat f, uint64_t bits) {
  if (!is_subnormal(f, bits))
    return bits;
  ++t_events.underflow; // .ftz rounds a subnormal to zero
  const uint32_t w = format_bits(f);
  return bits & (uint64_t{1} << (w - 1)); // keep the sign only
}

namespace {

bool tiny_after_rounding(FloatFormat f, RoundMode mode, double r) {
  const int emin = spec_of(f).emin;
  if (r == 0.0 || !std::isfinite(r) || std::fabs(r) >= std::ldexp(1.0, emin + 1))
    return false;
  // Scaled by 2^(1 - emin) (exact in double) every such value is a normal of the format, so the
  // format's rounding of it is a rounding to its precision alone.
  const double scaled = std::ldexp(r, 1 - emin);
  return std::fabs(decode(f, encode(f, scaled, mode))) < 2.0;
}

} // namespace

uint64_t arith_by_rounding(Arith op, FloatFormat f, RoundMode mode, uint64_t a_bits,
                           uint64_t b_bits, uint64_t c_bits, bool ftz) {
  const volatile double a = decode(f, a_bits);
  const volatile double b = decode(f, b_bits);
  const volatile double c = decode(f, c_bits);
  auto compute = [&]() -> double {
    switch (op) {
    case Arith::Add:
      return a + b;
    case Arith::Sub:
      return a - b;
    case Arith::Mul:
      return a * b;
    case Arith::Div:
      return a / b;
    case Arith::Fma:
      return std::fma(a, b, c);
    case Arith::Sqrt:
      return std::sqrt(a);
    case Arith::Rcp:
      return 1.0 / a;
    }
    return 0.0;
  };
  const int operands = op == Arith::Fma ? 3 : (op == Arith::Sqrt || op == Arith::Rcp) ? 1 : 2;
  bool nan_operand = std::isnan(a), finite_operands = std::isfinite(a);
  if (operands >= 2) {
    nan_operand = nan_operand || std::isnan(b);
    finite_operands = finite_operands && std::isfinite(b);
  }
  if (operands == 3) {
    nan_operand = nan_operand || std::isnan(c);
    finite_operands = finite_operands && std::isfinite(c);
  }
  const bool zero_divisor = (op == Arith::Div && b == 0.0) || (op == Arith::Rcp && a == 0.0);
  double r = 0;
  if (f == FloatFormat::F64) {
    // Correctly rounded by the host in the mode: its flags tell what the rounding did.
    std::feclearexcept(FE_ALL_EXCEPT);
    r = with_mode(host_mode(mode), compute);
    const int flags = std::fetestexcept(FE_ALL_EXCEPT);
    if (!nan_operand) {
      RealArithmeticEvents& e = t_events;
      if (flags & FE_INVALID)
        ++e.invalid;
      else if (flags & FE_DIVBYZERO)
        ++e.division_by_zero;
      else if (flags & FE_OVERFLOW)
        ++e.overflow;
      else if (r == 0.0 && (flags & FE_UNDERFLOW))
        ++e.underflow;
      else if (flags & FE_INEXACT)
        ++e.inexact;
    }
  } else if (op == Arith::Mul) {
    r = a * b; // the product of two narrow values is exact in double: rounding has no effect
  } else if (op == Arith::Add || op == Arith::Sub || op == Arith::Fma) {
    // The product of two narrow values is exact in double; one rounding-to-odd addition.
    const double x = op == Arith::Fma ? a * b : double{a};
    const double y = op == Arith::Fma ? double{c} : op == Arith::Add ? double{b} : -b;
    r = sum_rounded_to_odd(x, y);
    if (std::isnan(r))
      r = round_to_odd([&]() -> double { return x + y; });
    if (r == 0.0) // a sum rounded to odd is zero only when it is exactly zero
      r = exact_zero_sum(x, y, mode);
  } else {
    r = round_to_odd(compute);
  }
  if (f == FloatFormat::F64)
    return encode(f, r, mode);
  const uint64_t bits = ftz && tiny_after_rounding(f, mode, r)
                            ? encode(f, std::signbit(r) ? -0.0 : 0.0, mode)
                            : encode(f, r, mode);
  record(f, nan_operand, finite_operands, zero_divisor, r, decode(f, bits));
  return bits;
}

namespace {

// arith() for f32 with round-to-nearest-even and no .ftz: the host's binary32 operations are
// correctly rounded in that mode (SSE arithmetic, sqrtf and fmaf; the rounding mode is the
// default whenever no with_mode() is running). The events are found exactly: products of two
// f32 values are exact in double, and TwoSum gives the exact error of an f32 or f64 sum. (No
// volatile is needed: this file is compiled with -ffp-contract=off, so no product and sum are
// fused, and without -ffast-math nothing is reassociated.) `Fma` computes the fused result;
// the warp loops pass one that the host's FMA unit computes where it has one.
template <class Fma>
[[gnu::always_inline]] inline uint32_t f32_nearest(Arith op, uint32_t a_bits, uint32_t b_bits,
                                                   uint32_t c_bits, RealArithmeticEvents& e,
                                                   Fma fused) {
  const float a = std::bit_cast<float>(a_bits);
  const float b = std::bit_cast<float>(b_bits);
  const float c = std::bit_cast<float>(c_bits);
  const double da = a, db = b, dc = c;
  const bool unary = op == Arith::Sqrt || op == Arith::Rcp;
  // Bitwise & and | on the tests below, not && and ||: data-dependent branches cost more than
  // the comparisons they would skip (a warp's lanes round differently).
  const bool nan_operand =
      std::isnan(a) | (!unary & std::isnan(b)) | ((op == Arith::Fma) & std::isnan(c));
  const bool finite_operands =
      std::isfinite(a) & (unary | std::isfinite(b)) & ((op != Arith::Fma) | std::isfinite(c));
  float r = 0;
  bool zero_divisor = false;
  bool exact = true;      // the result is the real result
  bool tiny_zero = false; // a nonzero real result rounded to zero
  switch (op) {
  case Arith::Add:
  case Arith::Sub: {
    const float bb = op == Arith::Add ? b : -b;
    r = a + bb;
    // TwoSum (Knuth): the exact error of a rounded-to-nearest sum, barring overflow.
    const float bv = r - a;
    const float av = r - bv;
    exact = (a - av) + (bb - bv) == 0.0f;
    break; // a sum of f32 values is a multiple of the smallest subnormal: never a tiny zero
  }
  case Arith::Mul:
    r = a * b;
    exact = double{r} == da * db;
    tiny_zero = (r == 0.0f) & (a != 0.0f) & (b != 0.0f);
    break;
  case Arith::Div:
    r = a / b;
    zero_divisor = b == 0.0f;
    exact = double{r} * db == da;
    tiny_zero = (r == 0.0f) & (a != 0.0f) & std::isfinite(b);
    break;
  case Arith::Fma: {
    r = fused(a, b, c);
    const double p = da * db; // exact
    const double s = p + dc;
    const double pv = s - dc;
    const double cv = s - pv;
    const double error = (p - pv) + (dc - cv); // p + c == s + error exactly
    exact = (error == 0.0) & (double{r} == s);
    tiny_zero = (r == 0.0f) & ((s != 0.0) | (error != 0.0));
    break;
  }
  case Arith::Sqrt:
    r = std::sqrt(a);
    exact = double{r} * double{r} == da;
    break;
  case Arith::Rcp:
    r = 1.0f / a;
    zero_divisor = a == 0.0f;
    exact = double{r} * da == 1.0;
    break;
  }
  // Each operation counted once, under the first event that applies (arith_by_rounding's order);
  // arithmetic on an infinity is exact over the extended reals, and a NaN operand propagates.
  const bool counted = !nan_operand;
  const bool nan_result = std::isnan(r);
  const bool made_infinity = !nan_result & std::isinf(r) & finite_operands;
  const bool finite_rest = !nan_result & !made_infinity;
  e.invalid += counted & nan_result;
  e.division_by_zero += counted & made_infinity & zero_divisor;
  e.overflow += counted & made_infinity & !zero_divisor;
  e.underflow += counted & finite_rest & tiny_zero;
  e.inexact += counted & finite_rest & !tiny_zero & !exact & finite_operands & std::isfinite(r);
  return nan_result ? static_cast<uint32_t>(canonical_nan(FloatFormat::F32))
                    : std::bit_cast<uint32_t>(r);
}

struct LibmFma {
  float operator()(float a, float b, float c) const { return std::fma(a, b, c); }
};

uint64_t arith_f32_nearest(Arith op, uint64_t a_bits, uint64_t b_bits, uint64_t c_bits) {
  return f32_nearest(op, static_cast<uint32_t>(a_bits), static_cast<uint32_t>(b_bits),
                     static_cast<uint32_t>(c_bits), t_events, LibmFma{});
}

// The warp loop of arith_f32_lanes for one operation (a loop of its own, no switch per lane),
// compiled once for the host's FMA unit (a fused multiply-add instruction in the loop instead of
// a call per lane) and once without.
template <Arith Op, class Fma>
void f32_lanes_of(const F32Operands& x, uint32_t mask, uint64_t* out, uint32_t out_width,
                  Fma fused) {
  RealArithmeticEvents e;
  const uint64_t keep = out_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << out_width) - 1;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const auto l = static_cast<uint32_t>(std::countr_zero(m));
    auto operand = [&](int i) {
      return static_cast<uint32_t>(x.column[i] != nullptr ? x.column[i][l] : x.immediate[i]);
    };
    out[l] = f32_nearest(Op, operand(0), operand(1), operand(2), e, fused) & keep;
  }
  t_events += e;
}

template <class Fma>
void f32_lanes(Arith op, const F32Operands& x, uint32_t mask, uint64_t* out, uint32_t out_width,
               Fma fused) {
  switch (op) {
  case Arith::Add:
    return f32_lanes_of<Arith::Add>(x, mask, out, out_width, fused);
  case Arith::Sub:
    return f32_lanes_of<Arith::Sub>(x, mask, out, out_width, fused);
  case Arith::Mul:
    return f32_lanes_of<Arith::Mul>(x, mask, out, out_width, fused);
  case Arith::Fma:
    return f32_lanes_of<Arith::Fma>(x, mask, out, out_width, fused);
  case Arith::Div:
  case Arith::Sqrt:
  case Arith::Rcp:
    break; // arith_f32_lanes refuses them
  }
  VOLTA_ASSERT(false, "f32_lanes is asked for add, sub, mul or fma only");
}

#if defined(__x86_64__) && defined(__GNUC__)
struct HostFma {
  __attribute__((target("fma"))) float operator()(float a, float b, float c) const {
    return __builtin_fmaf(a, b, c);
  }
};
__attribute__((target("fma"))) void f32_lanes_with_fma_unit(Arith op, const F32Operands& x,
                                                            uint32_t mask, uint64_t* out,
                                                            uint32_t out_width) {
  f32_lanes(op, x, mask, out, out_width, HostFma{});
}
bool host_has_fma() {
  static const bool has = __builtin_cpu_supports("fma");
  return has;
}
bool host_has_avx2_fma() {
  static const bool has = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
  return has;
}

// fma.rn.f32 for a full warp of register operands, 8 lanes at a time, where every operand and
// every result is a finite nonzero number: then the only event is a rounding, and it is
// f32_nearest's test (TwoSum of the exact product and c in double) done 4 lanes at a time.
// False, with nothing written or counted, where any lane is not such a case (a NaN, an
// infinity, a zero result): the scalar loop then does the whole warp.
__attribute__((target("avx2,fma"))) bool fma_warp_avx2(const uint64_t* a_col, const uint64_t* b_col,
                                                       const uint64_t* c_col, uint64_t* out,
                                                       uint64_t keep, RealArithmeticEvents& e) {
  alignas(32) float a[32], b[32], c[32], r[32];
  for (int l = 0; l < 32; ++l) {
    a[l] = std::bit_cast<float>(static_cast<uint32_t>(a_col[l]));
    b[l] = std::bit_cast<float>(static_cast<uint32_t>(b_col[l]));
    c[l] = std::bit_cast<float>(static_cast<uint32_t>(c_col[l]));
  }
  const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  const __m256 infinity = _mm256_castsi256_ps(_mm256_set1_epi32(0x7f800000));
  uint64_t inexact = 0;
  for (int i = 0; i < 32; i += 8) {
    const __m256 va = _mm256_load_ps(a + i), vb = _mm256_load_ps(b + i), vc = _mm256_load_ps(c + i);
    const __m256 vr = _mm256_fmadd_ps(va, vb, vc);
    _mm256_store_ps(r + i, vr);
    // Finite: |x| < infinity (false for a NaN, an ordered comparison). The result nonzero.
    __m256 fine = _mm256_cmp_ps(_mm256_and_ps(va, abs_mask), infinity, _CMP_LT_OQ);
    fine = _mm256_and_ps(fine, _mm256_cmp_ps(_mm256_and_ps(vb, abs_mask), infinity, _CMP_LT_OQ));
    fine = _mm256_and_ps(fine, _mm256_cmp_ps(_mm256_and_ps(vc, abs_mask), infinity, _CMP_LT_OQ));
    fine = _mm256_and_ps(fine, _mm256_cmp_ps(_mm256_and_ps(vr, abs_mask), infinity, _CMP_LT_OQ));
    fine = _mm256_and_ps(fine, _mm256_cmp_ps(vr, _mm256_setzero_ps(), _CMP_NEQ_OQ));
    if (_mm256_movemask_ps(fine) != 0xff)
      return false;
    for (int h = 0; h < 2; ++h) {
      const __m128 a4 = h == 0 ? _mm256_castps256_ps128(va) : _mm256_extractf128_ps(va, 1);
      const __m128 b4 = h == 0 ? _mm256_castps256_ps128(vb) : _mm256_extractf128_ps(vb, 1);
      const __m128 c4 = h == 0 ? _mm256_castps256_ps128(vc) : _mm256_extractf128_ps(vc, 1);
      const __m128 r4 = h == 0 ? _mm256_castps256_ps128(vr) : _mm256_extractf128_ps(vr, 1);
      const __m256d da = _mm256_cvtps_pd(a4), db = _mm256_cvtps_pd(b4), dc = _mm256_cvtps_pd(c4);
      const __m256d p = _mm256_mul_pd(da, db); // exact
      const __m256d sum = _mm256_add_pd(p, dc);
      const __m256d pv = _mm256_sub_pd(sum, dc);
      const __m256d cv = _mm256_sub_pd(sum, pv);
      const __m256d error = _mm256_add_pd(_mm256_sub_pd(p, pv), _mm256_sub_pd(dc, cv));
      const __m256d exact = _mm256_and_pd(_mm256_cmp_pd(error, _mm256_setzero_pd(), _CMP_EQ_OQ),
                                          _mm256_cmp_pd(_mm256_cvtps_pd(r4), sum, _CMP_EQ_OQ));
      inexact += 4 - static_cast<uint64_t>(
                         std::popcount(static_cast<uint32_t>(_mm256_movemask_pd(exact))));
    }
  }
  for (int l = 0; l < 32; ++l)
    out[l] = std::bit_cast<uint32_t>(r[l]) & keep;
  e.inexact += inexact;
  return true;
}
#endif

} // namespace

// The host's binary32 arithmetic keeps subnormals on this thread (no flush-to-zero or
// denormals-are-zero mode, which a library built with -ffast-math may switch on for the process).
bool host_keeps_subnormals() {
  thread_local const bool keeps = [] {
    volatile float tiny = 0x1p-140f, one = 1.0f; // a subnormal operand (denormals-are-zero)
    volatile float a = 0x1p-120f, b = 0x1p-10f;  // a subnormal result (flush-to-zero)
    const float kept = tiny * one, made = a * b;
    return kept != 0.0f && made != 0.0f;
  }();
  return keeps;
}

bool arith_f32_lanes(Arith op, const F32Operands& x, uint32_t mask, uint64_t* out,
                     uint32_t out_width) {
  const bool common = op == Arith::Add || op == Arith::Sub || op == Arith::Mul || op == Arith::Fma;
  if (!common || !host_keeps_subnormals())
    return false;
#if defined(__x86_64__) && defined(__GNUC__)
  if (op == Arith::Fma && mask == ~0u && x.column[0] != nullptr && x.column[1] != nullptr &&
      x.column[2] != nullptr && host_has_avx2_fma()) {
    RealArithmeticEvents e;
    const uint64_t keep = out_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << out_width) - 1;
    if (fma_warp_avx2(x.column[0], x.column[1], x.column[2], out, keep, e)) {
      t_events += e;
      return true;
    }
  }
  if (host_has_fma()) {
    f32_lanes_with_fma_unit(op, x, mask, out, out_width);
    return true;
  }
#endif
  f32_lanes(op, x, mask, out, out_width, LibmFma{});
  return true;
}

uint64_t arith(Arith op, FloatFormat f, RoundMode mode, uint64_t a, uint64_t b, uint64_t c,
               bool ftz) {
  if (f == FloatFormat::F32 && mode == RoundMode::NearestEven && !ftz && host_keeps_subnormals())
    return arith_f32_nearest(op, a, b, c);
  return arith_by_rounding(op, f, mode, a, b, c, ftz);
}

uint64_t divide_nearest(FloatFormat f, uint64_t a_bits, uint64_t b_bits) {
  const double a = decode(f, a_bits), b = decode(f, b_bits);
  const double q = a / b;
  const uint64_t bits = encode(f, q, RoundMode::NearestEven);
  // The double quotient of two narrow values is exact when q * b == a (an exact product).
  const double exact = f != FloatFormat::F64 && std::isfinite(q) && q * b != a
                           ? std::nextafter(q, q > 0 ? HUGE_VAL : -HUGE_VAL) // not representable
                           : q;
  record(f, std::isnan(a) || std::isnan(b), std::isfinite(a) && std::isfinite(b), b == 0.0,
         f == FloatFormat::F64 ? q : exact, decode(f, bits));
  return bits;
}

uint64_t convert(FloatFormat to, double x, RoundMode mode) {
  const uint64_t bits = encode(to, x, mode);
  record(to, std::isnan(x), std::isfinite(x), false, x, decode(to, bits));
  return bits;
}

uint32_t widen_to_f32(FloatFormat from, uint16_t bits) {
  VOLTA_ASSERT(from == FloatFormat::F16 || from == FloatFormat::BF16,
               "widen_to_f32 widens a 16-bit format");
  // Every f16 and bf16 value is an f32 value: no rounding, no event (convert() records none for a
  // NaN operand, an infinity or an exact result); a NaN becomes the canonical NaN.
  if (from == FloatFormat::BF16) {
    const bool nan = (bits & 0x7f80) == 0x7f80 && (bits & 0x7f) != 0;
    return nan ? 0x7fffffffu : uint32_t{bits} << 16;
  }
  const uint32_t sign = uint32_t{bits & 0x8000u} << 16;
  const uint32_t exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  if (exponent == 0x1f)
    return mantissa != 0 ? 0x7fffffffu : sign | 0x7f800000u;
  if (exponent != 0) // a normal: rebias the exponent, widen the significand
    return sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  return std::bit_cast<uint32_t>(static_cast<float>(half_value(bits))); // zero or subnormal: exact
}

uint16_t narrow_f32_nearest(FloatFormat to, uint32_t bits) {
  VOLTA_ASSERT(to == FloatFormat::F16 || to == FloatFormat::BF16,
               "narrow_f32_nearest narrows to a 16-bit format");
  RealArithmeticEvents& e = t_events;
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) // a NaN operand: the canonical NaN, no event
    return static_cast<uint16_t>(canonical_nan(to));
  const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  // `kept` and the dropped `rest` (of `drop` bits) give the rounded magnitude; the events follow
  // convert()'s record(): an overflow where a finite value became an infinity, an underflow where
  // a nonzero value became zero, else a rounding where bits were dropped.
  auto round = [&](uint32_t kept, uint32_t rest, uint32_t drop, uint32_t infinity) -> uint16_t {
    const uint32_t half = uint32_t{1} << (drop - 1);
    const uint32_t r = kept + ((rest > half || (rest == half && (kept & 1u) != 0)) ? 1u : 0u);
    if (r >= infinity) {
      ++e.overflow;
      return static_cast<uint16_t>(sign | infinity);
    }
    if (r == 0)
      ++e.underflow;
    else if (rest != 0)
      ++e.inexact;
    return static_cast<uint16_t>(sign | r);
  };
  if (magnitude == 0x7f800000u) // an infinity stays one, no event
    return static_cast<uint16_t>(sign | (to == FloatFormat::BF16 ? 0x7f80u : 0x7c00u));
  if (magnitude == 0)
    return sign;
  if (to == FloatFormat::BF16) // the same exponent field: drop the low 16 bits (a carry is right)
    return round(magnitude >> 16, magnitude & 0xffffu, 16, 0x7f80u);
  const int exponent = static_cast<int>(magnitude >> 23) - 127;
  if (exponent >= 16) { // |x| >= 2^16 rounds to infinity
    ++e.overflow;
    return static_cast<uint16_t>(sign | 0x7c00u);
  }
  if (magnitude < 0x00800000u) { // an f32 subnormal is below 2^-126: zero
    ++e.underflow;
    return sign;
  }
  const uint32_t significand = (magnitude & 0x7fffffu) | 0x800000u; // value: s * 2^(exponent-23)
  if (exponent >= -14) // a normal f16: 10 of the 23 fraction bits kept; a carry is right
    return round((static_cast<uint32_t>(exponent + 15) << 10) | ((magnitude & 0x7fffffu) >> 13),
                 magnitude & 0x1fffu, 13, 0x7c00u);
  // A subnormal f16 (multiples of 2^-24): s * 2^(exponent + 1) of them; below a quarter of one
  // (drop > 25) it rounds to zero.
  const auto drop = static_cast<uint32_t>(-(exponent + 1));
  if (drop > 25) {
    ++e.underflow;
    return sign;
  }
  return round(significand >> drop, significand & ((uint32_t{1} << drop) - 1), drop, 0x7c00u);
}

bool arith_half_lanes(Arith op, FloatFormat f, const F32Operands& x, uint32_t mask, uint64_t* out,
                      uint32_t out_width) {
  const bool exact_in_double = (f == FloatFormat::F16 && op != Arith::Div && op != Arith::Fma &&
                                op != Arith::Sqrt && op != Arith::Rcp) ||
                               (f == FloatFormat::BF16 && op == Arith::Mul);
  if (!exact_in_double)
    return false;
  const uint64_t keep = out_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << out_width) - 1;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const auto l = static_cast<uint32_t>(std::countr_zero(m));
    const uint64_t a = (x.column[0] != nullptr ? x.column[0][l] : x.immediate[0]) & 0xffffu;
    const uint64_t b = (x.column[1] != nullptr ? x.column[1][l] : x.immediate[1]) & 0xffffu;
    const double da = decode(f, a), db = decode(f, b);
    if (!std::isfinite(da) || !std::isfinite(db)) { // a NaN or an infinity: the general path
      out[l] = arith_by_rounding(op, f, RoundMode::NearestEven, a, b) & keep;
      continue;
    }
    // Exact in double: an f16 sum spans at most 40 bits, a product 22 (bf16: 16), so the host's
    // one operation in round-to-nearest (the mode outside with_mode) is the exact result, and
    // encode() its one rounding — arith_by_rounding's result, its exact zero sums included.
    const double r = op == Arith::Mul ? da * db : op == Arith::Add ? da + db : da - db;
    const uint64_t bits = encode(f, r, RoundMode::NearestEven);
    record(f, false, true, false, r, decode(f, bits));
    out[l] = bits & keep;
  }
  return true;
}

RealArithmeticEvents& real_arithmetic_events() {
  return t_events;
}

void reset_real_arithmetic_events() {
  t_events = RealArithmeticEvents{};
}

uint64_t approx(Approx fn, FloatFormat f, uint64_t a_bits) {
  const double a = decode(f, a_bits);
  double r = 0;
  switch (fn) {
  case Approx::Ex2:
    r = std::exp2(a);
    break;
  case Approx::Lg2:
    r = std::log2(a);
    break;
  case Approx::Rcp:
    r = 1.0 / a;
    break;
  case Approx::Rsqrt:
    r = 1.0 / std::sqrt(a);
    break;
  case Approx::Sqrt:
    r = std::sqrt(a);
    break;
  case Approx::Sin:
    r = std::sin(a);
    break;
  case Approx::Cos:
    r = std::cos(a);
    break;
  case Approx::Tanh:
    r = std::tanh(a);
    break;
  case Approx::Exp:
    r = std::exp(a);
    break;
  }
  const uint64_t bits = encode(f, r, RoundMode::NearestEven);
  // 2^a and e^a are never 0 over the reals: a zero from the C library is an underflow too.
  const bool positive = fn == Approx::Ex2 || fn == Approx::Exp;
  const double exact = positive && r == 0.0 && std::isfinite(a) ? std::ldexp(1.0, -1074) : r;
  record(f, std::isnan(a), std::isfinite(a), a == 0.0, exact, decode(f, bits));
  return bits;
}

namespace {

uint64_t pick(FloatFormat f, uint64_t a, uint64_t b, bool propagate_nan, bool want_min) {
  const bool na = is_nan(f, a), nb = is_nan(f, b);
  if (na || nb) {
    if (propagate_nan || (na && nb))
      return canonical_nan(f);
    return na ? b : a;
  }
  const double x = decode(f, a), y = decode(f, b);
  if (x == y) { // -0 is below +0
    const bool xneg = std::signbit(x);
    return (want_min ? xneg : !xneg) ? a : b;
  }
  return (x < y) == want_min ? a : b;
}

} // namespace

uint64_t fmin(FloatFormat f, uint64_t a, uint64_t b, bool propagate_nan) {
  return pick(f, a, b, propagate_nan, true);
}

uint64_t fmax(FloatFormat f, uint64_t a, uint64_t b, bool propagate_nan) {
  return pick(f, a, b, propagate_nan, false);
}

uint64_t saturate(FloatFormat f, uint64_t bits) {
  const double v = decode(f, bits);
  if (std::isnan(v) || v <= 0.0)
    return 0; // +0 (also for -0 and NaN)
  if (v >= 1.0)
    return encode(f, 1.0, RoundMode::NearestEven);
  return bits;
}

double round_integral(double x, RoundMode mode) {
  if (!std::isfinite(x) || std::fabs(x) >= 4503599627370496.0) // 2^52: already integral
    return x;
  const double r = round_scaled(x, mode);
  return r == 0.0 ? std::copysign(0.0, x) : r;
}

uint64_t from_integer(FloatFormat f, uint64_t bits, bool is_signed, RoundMode mode) {
  const bool negative = is_signed && static_cast<int64_t>(bits) < 0;
  if (f == FloatFormat::F64) {
    const volatile uint64_t u = bits;
    const double r = with_mode(host_mode(mode), [&]() -> double {
      return is_signed ? static_cast<double>(static_cast<int64_t>(u)) : static_cast<double>(u);
    });
    return std::bit_cast<uint64_t>(r);
  }
  const uint64_t magnitude = negative ? 0 - bits : bits;
  double m = 0;
  if (magnitude < (uint64_t{1} << 53)) {
    m = static_cast<double>(magnitude);
  } else { // round to odd at 53 bits
    const int shift = 64 - std::countl_zero(magnitude) - 53;
    uint64_t kept = magnitude >> shift;
    if ((magnitude & ((uint64_t{1} << shift) - 1)) != 0)
      kept |= 1;
    m = std::ldexp(static_cast<double>(kept), shift);
  }
  return encode(f, negative ? -m : m, mode);
}

} // namespace volta::emulate
