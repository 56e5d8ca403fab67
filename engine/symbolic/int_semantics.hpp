// The exact semantics of integer operations on bit-vectors (docs/semantics.md, "Typed values"):
// two's-complement, modulo 2^width, each operation as PTX defines it. Used to fold constants
// when the engine builds integer nodes and to evaluate integer expressions at concrete points
// (random evaluation, counterexamples), so that both agree bit for bit.
#pragma once

#include <cstdint>
#include <gmpxx.h>
#include <optional>

#include "engine/symbolic/expr.hpp"

namespace volta::symbolic {

inline constexpr uint64_t width_mask(uint32_t w) {
  return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
}
inline constexpr int64_t sign_extend(uint64_t v, uint32_t w) {
  return w >= 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - w)) >> (64 - w);
}

// The value of a BitOp of `kind` on operands already reduced to their widths (d: the fourth
// operand of bfi/lop3/shf, from a Tuple). `operand_width` is the width of the operands where
// it differs from the result's (Ext). nullopt where PTX leaves the result undefined (division
// by zero).
std::optional<uint64_t> eval_bitop(BitOpKind kind, IntType type, uint32_t operand_width, uint64_t a,
                                   uint64_t b, uint64_t c, uint64_t d);

// Float formats a conversion from an integer rounds to (IntToReal's aux bits 3-4).
enum class FloatFormat : uint8_t { F32, F16, F64, BF16 };
// Significand bits (with the hidden one) and the largest finite value's exponent of a format.
int format_precision(FloatFormat f);
int format_max_exponent(FloatFormat f);

// The integer z rounded to `format` by `rounding` (cvt.rn.f32.s32 and friends), exactly; nullopt
// when it overflows the format (an infinity or the largest finite value, by the mode: the
// caller decides).
std::optional<mpz_class> round_integer_to_format(const mpz_class& z, FloatFormat format,
                                                 RoundKind rounding);

// Can IntToReal with this aux (source IntType code, FloatFormat << 3, RoundKind << 5) give an
// infinity? Only f16 has a range below 2^64, and only a source that reaches 65520 overflows it
// (cvt.rn.f16.u32 of 70000 is +inf).
bool int_to_real_may_overflow(uint8_t aux);

// A rational rounded to an integer by `rounding` (floor, ceil, trunc, nearest-even).
mpz_class round_rational(const mpq_class& q, RoundKind rounding);

// An integer comparison of two values of width `w`.
bool eval_icmp(CmpKind kind, bool is_signed, uint32_t w, uint64_t a, uint64_t b);

} // namespace volta::symbolic
