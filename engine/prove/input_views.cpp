#include "engine/prove/input_views.hpp"

#include <map>

namespace volta::prove {
namespace {

struct Format {
  int exponent_bits;
  int fraction_bits;
};

Format format_of(uint8_t wc) {
  switch (wc) {
  case 1:
    return {5, 10};
  case 3:
    return {11, 52};
  case symbolic::kFormatBF16:
    return {8, 7};
  default:
    return {8, 23};
  }
}

symbolic::Rational power_of_two(int e) {
  symbolic::Rational r(1);
  if (e >= 0)
    mpq_mul_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  else
    mpq_div_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  return r;
}

} // namespace

std::optional<uint64_t> float_encoding(const symbolic::Rational& q, uint8_t wc) {
  const Format f = format_of(wc);
  const uint64_t sign = q < 0 ? 1 : 0;
  symbolic::Rational m = abs(q);
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  const uint64_t sign_bit = sign << (f.exponent_bits + f.fraction_bits);
  if (m == 0)
    return sign_bit; // +0 (a real zero has no sign: its encoding is +0)
  // m = s * 2^e with s in [1, 2).
  int e = static_cast<int>(mpz_sizeinbase(m.get_num_mpz_t(), 2)) -
          static_cast<int>(mpz_sizeinbase(m.get_den_mpz_t(), 2));
  symbolic::Rational s = m / power_of_two(e);
  if (s < 1) {
    --e;
    s *= 2;
  } else if (s >= 2) {
    ++e;
    s /= 2;
  }
  const int emin = 1 - bias;
  if (e > bias)
    return std::nullopt; // beyond the largest finite value
  // Subnormals: the significand is scaled to the smallest exponent.
  const int exponent = e < emin ? emin : e;
  symbolic::Rational scaled = m / power_of_two(exponent - f.fraction_bits);
  if (scaled.get_den() != 1)
    return std::nullopt; // not exactly a value of the format
  const mpz_class significand = scaled.get_num();
  const uint64_t sig = significand.get_ui();
  const bool normal = e >= emin;
  const uint64_t biased = normal ? static_cast<uint64_t>(exponent + bias) : 0;
  const uint64_t fraction = sig & ((uint64_t{1} << f.fraction_bits) - 1);
  return sign_bit | biased << f.fraction_bits | fraction;
}

std::optional<symbolic::Rational> float_value(uint64_t bits, uint8_t wc) {
  const Format f = format_of(wc);
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  const uint64_t fraction = bits & ((uint64_t{1} << f.fraction_bits) - 1);
  const uint64_t biased = (bits >> f.fraction_bits) & ((uint64_t{1} << f.exponent_bits) - 1);
  const bool negative = (bits >> (f.exponent_bits + f.fraction_bits)) & 1;
  if (biased == (uint64_t{1} << f.exponent_bits) - 1)
    return std::nullopt; // infinity or NaN: no real value
  const uint64_t significand = biased == 0 ? fraction : fraction | uint64_t{1} << f.fraction_bits;
  const int exponent = (biased == 0 ? 1 : static_cast<int>(biased)) - bias - f.fraction_bits;
  symbolic::Rational v(mpz_class(std::to_string(significand)));
  v *= power_of_two(exponent);
  return negative ? -v : v;
}

bool reconcile_views(const symbolic::ExprStore& store, const std::vector<symbolic::ExprId>& leaves,
                     symbolic::Assignment& point) {
  // Per element: its integer view (width code), if any, and whether the real view is a leaf.
  struct Views {
    std::optional<uint8_t> wc;
    bool real = false;
    bool widths_differ = false;
  };
  std::map<std::pair<uint32_t, uint32_t>, Views> elements;
  for (symbolic::ExprId leaf : leaves) {
    const symbolic::Node& n = store.node(leaf);
    if (n.op == symbolic::Op::Param)
      continue;
    if (n.op == symbolic::Op::FloatBits) {
      const symbolic::Node& x = store.node(n.a);
      Views& v = elements[{x.a, x.b}];
      v.widths_differ |= v.wc && *v.wc != n.aux;
      v.wc = n.aux;
    } else {
      elements[{n.a, n.b}].real = true;
    }
  }
  for (const auto& [element, v] : elements) {
    if (v.widths_differ)
      return false; // two integer views of different widths: not one input's bits
    if (!v.wc || !v.real)
      continue;
    const uint64_t real_key = symbolic::Assignment::input_key(element.first, element.second);
    const uint64_t int_key =
        symbolic::Assignment::int_input_key(element.first, element.second, *v.wc);
    auto real_it = point.values.find(real_key);
    const symbolic::Rational real =
        real_it == point.values.end() ? symbolic::Rational(0) : real_it->second;
    if (auto bits = float_encoding(real, *v.wc)) {
      point.values[int_key] = symbolic::Rational(mpz_class(std::to_string(*bits)));
      continue;
    }
    auto int_it = point.values.find(int_key);
    const symbolic::Rational bits_value =
        int_it == point.values.end() ? symbolic::Rational(0) : int_it->second;
    if (bits_value.get_den() != 1 || bits_value < 0)
      return false;
    auto value = float_value(bits_value.get_num().get_ui(), *v.wc);
    if (!value)
      return false;
    point.values[real_key] = *value;
  }
  return true;
}

} // namespace volta::prove
