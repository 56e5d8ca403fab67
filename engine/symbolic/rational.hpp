// Exact rational constants. Every IEEE literal of finite value is a dyadic rational, so
// `0f3E000000` is exactly 1/8; the engine never rounds a constant to a double.
#pragma once

#include <cstdint>
#include <gmpxx.h>
#include <optional>
#include <string>

namespace volta::symbolic {

using Rational = mpq_class;

// The exact value of IEEE bits; nullopt for infinities and NaNs (see FloatClass).
std::optional<Rational> rational_from_f64_bits(uint64_t bits);
std::optional<Rational> rational_from_f32_bits(uint32_t bits);
std::optional<Rational> rational_from_f16_bits(uint16_t bits);
std::optional<Rational> rational_from_bf16_bits(uint16_t bits);

enum class FloatClass { Finite, PosInf, NegInf, NaN };
FloatClass classify_f64_bits(uint64_t bits);
FloatClass classify_f32_bits(uint32_t bits);
FloatClass classify_f16_bits(uint16_t bits);
FloatClass classify_bf16_bits(uint16_t bits);

// The f32 / f64 bits of `value` when it is exactly representable; nullopt otherwise.
std::optional<uint32_t> exact_f32_bits(const Rational& value);
std::optional<uint64_t> exact_f64_bits(const Rational& value);

// An IEEE binary format by its field widths: f16 {5, 10}, bf16 {8, 7}, f32 {8, 23}, f64 {11, 52}.
struct IeeeLayout {
  int exp_bits = 8;
  int frac_bits = 23;
};
// The bits of `value` in `layout` when exactly representable (+0 for zero); nullopt otherwise.
std::optional<uint64_t> exact_ieee_bits(const Rational& value, IeeeLayout layout);
// The largest finite value of `layout`.
Rational largest_finite(IeeeLayout layout);

// Parses "3", "-3/4", "0.125", "1e-5" exactly (decimal notation is read exactly, not via double).
std::optional<Rational> parse_rational(const std::string& text);

// "3", "-3/4".
std::string to_string(const Rational& value);

// A hash of the canonical form (numerator and denominator).
uint64_t hash_rational(const Rational& value);

// The nearest double (for reports and high-precision evaluation seeds only, never for verdicts).
double to_double(const Rational& value);

} // namespace volta::symbolic

namespace volta::symbolic {

// The IEEE bits of the float nearest to `value` (round to nearest, ties to even), as a compiler
// would read a decimal literal: used for `float:V` kernel parameters.
uint32_t nearest_f32_bits(const Rational& value);
uint64_t nearest_f64_bits(const Rational& value);

} // namespace volta::symbolic
