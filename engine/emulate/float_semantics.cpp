// Compiled with -frounding-math (engine/CMakeLists.txt): the compiler must neither fold nor
// move floating-point operations across the fesetround calls.
#include "engine/emulate/float_semantics.hpp"

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

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
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
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
  const double r = round_to_format(x, spec_of(f), mode);
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
  const double v = decode(f, bits);
  return v != 0.0 && std::isfinite(v) && std::fabs(v) < std::ldexp(1.0, spec_of(f).emin);
}

uint64_t flush(FloatFormat f, uint64_t bits) {
  if (!is_subnormal(f, bits))
    return bits;
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

uint64_t arith(Arith op, FloatFormat f, RoundMode mode, uint64_t a_bits, uint64_t b_bits,
               uint64_t c_bits, bool ftz) {
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
  double r = 0;
  if (f == FloatFormat::F64) {
    r = with_mode(host_mode(mode), compute);
  } else if (op == Arith::Fma) {
    // The product of two narrow values is exact in double; one rounding-to-odd addition.
    const volatile double product = a * b;
    r = round_to_odd([&]() -> double { return product + c; });
  } else {
    r = round_to_odd(compute);
  }
  if (r == 0.0 && (op == Arith::Add || op == Arith::Sub) && (a != 0.0 || b != 0.0)) {
    // An exact zero sum of nonzero operands is +0, or -0 when rounding down (IEEE 754 §6.3);
    // the round-to-odd path computes it toward zero, which always gives +0.
    r = mode == RoundMode::Down ? -0.0 : 0.0;
  }
  if (ftz && f != FloatFormat::F64 && tiny_after_rounding(f, mode, r))
    return encode(f, std::signbit(r) ? -0.0 : 0.0, mode);
  return encode(f, r, mode);
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
  return encode(f, r, RoundMode::NearestEven);
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
