#include "engine/prove/input_views.hpp"

#include <algorithm>
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

std::optional<uint8_t> value_view_format(const symbolic::ExprStore& store, symbolic::ExprId leaf) {
  const symbolic::Node& n = store.node(leaf);
  if (n.op != symbolic::Op::FloatBits || store.op(n.a) != symbolic::Op::Input)
    return std::nullopt;
  const auto own = store.element_format(store.node(n.a).a);
  if (!own || *own == n.aux)
    return std::nullopt;
  return n.aux;
}

namespace {

// Per element: its integer views (width codes), and whether the real view is a leaf.
struct Views {
  std::vector<uint8_t> wcs;
  bool real = false;
};

symbolic::Rational value_at(const symbolic::Assignment& point, uint64_t key) {
  auto it = point.values.find(key);
  return it == point.values.end() ? symbolic::Rational(0) : it->second;
}

std::optional<symbolic::Rational> bits_value(const symbolic::Rational& bits, uint8_t wc) {
  if (bits.get_den() != 1 || bits < 0 || !bits.get_num().fits_ulong_p())
    return std::nullopt;
  return float_value(bits.get_num().get_ui(), wc);
}

// The views of an element of a float array of format `own` where some integer view is in
// another format (docs/semantics.md, "Inputs have two views": a width change is idealized, so the
// f32 bits of a widened f16 element are FloatBits(A[i], f32)). Every view is a function of the
// element's one value: the first of the real view, the own bits' value and the other views'
// values that every format holds exactly becomes the element's value, and each view takes its
// encoding. False where none does.
bool reconcile_value_views(uint32_t array, uint32_t index, uint8_t own, const Views& v,
                           symbolic::Assignment& point) {
  const auto fits_all = [&](const symbolic::Rational& q) {
    if (!float_encoding(q, own))
      return false;
    for (uint8_t wc : v.wcs) {
      if (!float_encoding(q, wc))
        return false;
    }
    return true;
  };
  const uint64_t real_key = symbolic::Assignment::input_key(array, index);
  std::optional<symbolic::Rational> value;
  if (v.real && fits_all(value_at(point, real_key)))
    value = value_at(point, real_key);
  // The element's own bits first, then the views of other formats.
  std::vector<uint8_t> order(v.wcs);
  std::stable_partition(order.begin(), order.end(), [&](uint8_t wc) { return wc == own; });
  for (uint8_t wc : order) {
    if (value)
      break;
    const auto q =
        bits_value(value_at(point, symbolic::Assignment::int_input_key(array, index, wc)), wc);
    if (q && fits_all(*q))
      value = q;
  }
  if (!value)
    return false;
  if (v.real)
    point.values[real_key] = *value;
  for (uint8_t wc : v.wcs) {
    point.values[symbolic::Assignment::int_input_key(array, index, wc)] =
        symbolic::Rational(mpz_class(std::to_string(*float_encoding(*value, wc))));
  }
  return true;
}

} // namespace

bool reconcile_views(const symbolic::ExprStore& store, const std::vector<symbolic::ExprId>& leaves,
                     symbolic::Assignment& point) {
  std::map<std::pair<uint32_t, uint32_t>, Views> elements;
  for (symbolic::ExprId leaf : leaves) {
    const symbolic::Node& n = store.node(leaf);
    if (n.op == symbolic::Op::Param)
      continue;
    if (n.op == symbolic::Op::FloatBits) {
      const symbolic::Node& x = store.node(n.a);
      std::vector<uint8_t>& wcs = elements[{x.a, x.b}].wcs;
      if (std::find(wcs.begin(), wcs.end(), n.aux) == wcs.end())
        wcs.push_back(n.aux);
    } else {
      elements[{n.a, n.b}].real = true;
    }
  }
  for (const auto& [element, v] : elements) {
    const auto own = store.element_format(element.first);
    if (own && std::any_of(v.wcs.begin(), v.wcs.end(), [&](uint8_t wc) { return wc != *own; })) {
      if (!reconcile_value_views(element.first, element.second, *own, v, point))
        return false;
      continue;
    }
    if (v.wcs.size() > 1)
      return false; // two integer views of different widths: not one input's bits
    if (v.wcs.empty() || !v.real)
      continue;
    const uint8_t wc = v.wcs.front();
    const uint64_t real_key = symbolic::Assignment::input_key(element.first, element.second);
    const uint64_t int_key = symbolic::Assignment::int_input_key(element.first, element.second, wc);
    const symbolic::Rational real = value_at(point, real_key);
    if (auto bits = float_encoding(real, wc)) {
      point.values[int_key] = symbolic::Rational(mpz_class(std::to_string(*bits)));
      continue;
    }
    auto value = bits_value(value_at(point, int_key), wc);
    if (!value)
      return false;
    point.values[real_key] = *value;
  }
  return true;
}

} // namespace volta::prove
