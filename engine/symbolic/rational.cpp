#include "engine/symbolic/rational.hpp"

#include <cctype>
#include <cstring>

namespace volta::symbolic {
namespace {

// value = (-1)^sign * mantissa * 2^exponent, exactly.
Rational make_dyadic(bool negative, uint64_t mantissa, int exponent) {
  mpz_class m;
  mpz_import(m.get_mpz_t(), 1, 1, sizeof(mantissa), 0, 0, &mantissa);
  Rational r(m);
  if (exponent > 0) {
    mpq_mul_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<unsigned long>(exponent));
  } else if (exponent < 0) {
    mpq_div_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<unsigned long>(-exponent));
  }
  r.canonicalize();
  if (negative)
    r = -r;
  return r;
}

// Generic IEEE binary format decoding: `exp_bits` exponent bits, `frac_bits` fraction bits.
std::optional<Rational> decode_ieee(uint64_t bits, int exp_bits, int frac_bits) {
  const uint64_t frac_mask = (uint64_t{1} << frac_bits) - 1;
  const uint64_t exp_mask = (uint64_t{1} << exp_bits) - 1;
  const bool negative = (bits >> (exp_bits + frac_bits)) & 1u;
  const uint64_t exponent = (bits >> frac_bits) & exp_mask;
  const uint64_t fraction = bits & frac_mask;
  const int bias = static_cast<int>((uint64_t{1} << (exp_bits - 1)) - 1);
  if (exponent == exp_mask)
    return std::nullopt; // inf or NaN
  if (exponent == 0)
    return make_dyadic(negative, fraction, 1 - bias - frac_bits);
  return make_dyadic(negative, fraction | (uint64_t{1} << frac_bits),
                     static_cast<int>(exponent) - bias - frac_bits);
}

FloatClass classify_ieee(uint64_t bits, int exp_bits, int frac_bits) {
  const uint64_t frac_mask = (uint64_t{1} << frac_bits) - 1;
  const uint64_t exp_mask = (uint64_t{1} << exp_bits) - 1;
  const uint64_t exponent = (bits >> frac_bits) & exp_mask;
  if (exponent != exp_mask)
    return FloatClass::Finite;
  if ((bits & frac_mask) != 0)
    return FloatClass::NaN;
  return ((bits >> (exp_bits + frac_bits)) & 1u) ? FloatClass::NegInf : FloatClass::PosInf;
}

// Encodes `value` in an IEEE format when exactly representable.
// value = num / 2^d with num odd when d > 0; top = floor(log2(value)).
std::optional<uint64_t> encode_ieee(const Rational& value, int exp_bits, int frac_bits) {
  if (value == 0)
    return uint64_t{0};
  const bool negative = value < 0;
  const Rational magnitude = abs(value);
  const mpz_class& den = magnitude.get_den();
  if (mpz_popcount(den.get_mpz_t()) != 1)
    return std::nullopt; // not dyadic
  const long d = static_cast<long>(mpz_sizeinbase(den.get_mpz_t(), 2)) - 1;
  const mpz_class& num = magnitude.get_num();
  const long top = static_cast<long>(mpz_sizeinbase(num.get_mpz_t(), 2)) - 1 - d;
  const long bias = (1L << (exp_bits - 1)) - 1;
  const long min_normal = 1 - bias;
  const bool normal = top >= min_normal;
  if (normal && top > bias)
    return std::nullopt; // overflow
  // significand = value * 2^(frac_bits - top) for normals, value * 2^(frac_bits - min_normal)
  // for subnormals; it must be an integer.
  const long shift = (normal ? frac_bits - top : frac_bits - min_normal) - d;
  mpz_class significand = num;
  if (shift >= 0) {
    significand <<= static_cast<mp_bitcnt_t>(shift);
  } else {
    if (mpz_scan1(num.get_mpz_t(), 0) < static_cast<mp_bitcnt_t>(-shift))
      return std::nullopt;
    significand >>= static_cast<mp_bitcnt_t>(-shift);
  }
  if (normal)
    significand -= mpz_class(1) << static_cast<mp_bitcnt_t>(frac_bits);
  const uint64_t fraction = mpz_get_ui(significand.get_mpz_t());
  const uint64_t biased = normal ? static_cast<uint64_t>(top + bias) : 0;
  uint64_t bits = (biased << frac_bits) | fraction;
  if (negative)
    bits |= uint64_t{1} << (exp_bits + frac_bits);
  return bits;
}

} // namespace

std::optional<Rational> rational_from_f64_bits(uint64_t bits) {
  return decode_ieee(bits, 11, 52);
}
std::optional<Rational> rational_from_f32_bits(uint32_t bits) {
  return decode_ieee(bits, 8, 23);
}
std::optional<Rational> rational_from_f16_bits(uint16_t bits) {
  return decode_ieee(bits, 5, 10);
}
std::optional<Rational> rational_from_bf16_bits(uint16_t bits) {
  return decode_ieee(bits, 8, 7);
}

FloatClass classify_f64_bits(uint64_t bits) {
  return classify_ieee(bits, 11, 52);
}
FloatClass classify_f32_bits(uint32_t bits) {
  return classify_ieee(bits, 8, 23);
}
FloatClass classify_f16_bits(uint16_t bits) {
  return classify_ieee(bits, 5, 10);
}
FloatClass classify_bf16_bits(uint16_t bits) {
  return classify_ieee(bits, 8, 7);
}

std::optional<uint32_t> exact_f32_bits(const Rational& value) {
  auto bits = encode_ieee(value, 8, 23);
  if (!bits)
    return std::nullopt;
  return static_cast<uint32_t>(*bits);
}

std::optional<uint64_t> exact_f64_bits(const Rational& value) {
  return encode_ieee(value, 11, 52);
}

std::optional<uint64_t> exact_ieee_bits(const Rational& value, IeeeLayout layout) {
  return encode_ieee(value, layout.exp_bits, layout.frac_bits);
}

Rational largest_finite(IeeeLayout layout) {
  // (2 - 2^-frac) * 2^emax with emax = bias = 2^(exp_bits - 1) - 1
  const long emax = (1L << (layout.exp_bits - 1)) - 1;
  const mpz_class significand = (mpz_class(1) << (layout.frac_bits + 1)) - 1;
  return Rational(significand << static_cast<mp_bitcnt_t>(emax - layout.frac_bits));
}

std::optional<Rational> parse_rational(const std::string& text) {
  if (text.empty())
    return std::nullopt;
  size_t slash = text.find('/');
  if (slash != std::string::npos) {
    Rational r;
    if (r.set_str(text, 10) != 0)
      return std::nullopt;
    if (r.get_den() == 0)
      return std::nullopt;
    r.canonicalize();
    return r;
  }
  // Decimal: [-+]digits[.digits][e[-+]digits]
  size_t i = 0;
  bool negative = false;
  if (text[i] == '-' || text[i] == '+') {
    negative = text[i] == '-';
    ++i;
  }
  std::string digits;
  long scale = 0;
  bool any_digit = false;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    digits += text[i++];
    any_digit = true;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      digits += text[i++];
      --scale;
      any_digit = true;
    }
  }
  if (!any_digit)
    return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
      exp_negative = text[i] == '-';
      ++i;
    }
    long e = 0;
    bool any = false;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (e > 100000)
        return std::nullopt;
      e = e * 10 + (text[i++] - '0');
      any = true;
    }
    if (!any)
      return std::nullopt;
    scale += exp_negative ? -e : e;
  }
  if (i != text.size())
    return std::nullopt;
  mpz_class num(digits.empty() ? std::string("0") : digits, 10);
  Rational r(num);
  mpz_class ten_pow;
  mpz_ui_pow_ui(ten_pow.get_mpz_t(), 10, static_cast<unsigned long>(scale < 0 ? -scale : scale));
  if (scale < 0) {
    r /= ten_pow;
  } else {
    r *= ten_pow;
  }
  r.canonicalize();
  if (negative)
    r = -r;
  return r;
}

std::string to_string(const Rational& value) {
  return value.get_str(10);
}

uint64_t hash_rational(const Rational& value) {
  auto limb_hash = [](const mpz_class& z) {
    uint64_t h = static_cast<uint64_t>(mpz_sgn(z.get_mpz_t())) * 0x9E3779B97F4A7C15ull;
    size_t n = mpz_size(z.get_mpz_t());
    for (size_t i = 0; i < n; ++i) {
      h ^= mpz_getlimbn(z.get_mpz_t(), i) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    }
    return h;
  };
  return limb_hash(value.get_num()) * 31 + limb_hash(value.get_den());
}

double to_double(const Rational& value) {
  return value.get_d();
}

} // namespace volta::symbolic

namespace volta::symbolic {
namespace {

// Generic correctly rounded encoding (round to nearest, ties to even; overflow to infinity).
uint64_t nearest_ieee(const Rational& value, int exp_bits, int frac_bits) {
  if (value == 0)
    return 0;
  const bool negative = value < 0;
  const uint64_t sign = negative ? uint64_t{1} << (exp_bits + frac_bits) : 0;
  Rational q = abs(value);
  const long bias = (1L << (exp_bits - 1)) - 1;
  // e = floor(log2(q)): start from the bit lengths and correct by one.
  long e = static_cast<long>(mpz_sizeinbase(q.get_num_mpz_t(), 2)) -
           static_cast<long>(mpz_sizeinbase(q.get_den_mpz_t(), 2));
  auto pow2 = [](long k) {
    Rational r(1);
    if (k > 0)
      mpq_mul_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<unsigned long>(k));
    if (k < 0)
      mpq_div_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<unsigned long>(-k));
    return r;
  };
  if (q < pow2(e))
    --e;
  if (q >= pow2(e + 1))
    ++e;
  const long min_normal = 1 - bias;
  const long scale_exp = e < min_normal ? min_normal - frac_bits : e - frac_bits;
  // significand = q / 2^scale_exp, rounded to an integer (ties to even)
  Rational s = q / pow2(scale_exp);
  mpz_class floor_s;
  mpz_fdiv_q(floor_s.get_mpz_t(), s.get_num_mpz_t(), s.get_den_mpz_t());
  Rational frac = s - Rational(floor_s);
  if (frac > Rational(1, 2) || (frac == Rational(1, 2) && mpz_odd_p(floor_s.get_mpz_t())))
    floor_s += 1;
  long biased;
  mpz_class significand = floor_s;
  if (e < min_normal) {
    biased = 0;
    if (significand >= (mpz_class(1) << frac_bits)) { // rounded up into the normal range
      biased = 1;
      significand -= mpz_class(1) << frac_bits;
    }
  } else {
    if (significand >= (mpz_class(1) << (frac_bits + 1))) { // rounding carried into a new binade
      significand >>= 1;
      ++e;
    }
    biased = e + bias;
    significand -= mpz_class(1) << frac_bits;
  }
  if (biased >= (1L << exp_bits) - 1)
    return sign | (((uint64_t{1} << exp_bits) - 1) << frac_bits); // inf
  return sign | (static_cast<uint64_t>(biased) << frac_bits) | mpz_get_ui(significand.get_mpz_t());
}

} // namespace

uint32_t nearest_f32_bits(const Rational& value) {
  return static_cast<uint32_t>(nearest_ieee(value, 8, 23));
}
uint64_t nearest_f64_bits(const Rational& value) {
  return nearest_ieee(value, 11, 52);
}

} // namespace volta::symbolic
