// IEEE-754 arithmetic of the concrete emulator, bit-exact for every PTX rounding mode.
//
// Values travel as raw bits (binary16, bfloat16, binary32 or binary64 encodings). The method:
//  - binary64 operations run on the host under fesetround (the host's IEEE double arithmetic and
//    std::fma are correctly rounded in every mode);
//  - narrower formats are computed in double with *round-to-odd* (round toward zero, then set the
//    last bit when the result was inexact) and then rounded in software to the target format
//    with the instruction's mode. Round-to-odd to p+2 or more bits followed by a rounding to p
//    bits equals a single correct rounding (Boldo & Melquiond), and 53 >= 24 + 2, so this is
//    exactly IEEE for binary32, binary16 and bfloat16;
//  - `.ftz` flushes subnormal inputs and results to a zero of the same sign;
//  - NaN results are PTX's canonical NaN (0x7fffffff for f32, 0x7fff for f16/bf16,
//    0x7fffffffffffffff for f64); the emulator does not model NaN payload propagation, so a
//    differential test must compare NaN outputs as "is a NaN".
// The approximate instructions are modeled by the exactly rounded result (see approx()).
//
// Besides the bits, every operation that the contract reads over the reals (arithmetic, the
// approximate functions, conversions between float formats) records on this thread what IEEE
// arithmetic did that the reals do not: a rounding, an overflow to infinity, an underflow to
// zero, a NaN or an infinity made from numbers (RealArithmeticEvents). The emulator
// cross-check of an EQUIVALENT reads them to tell a device value the contract idealizes from
// one that contradicts the proof.
#pragma once

#include <cstdint>

namespace volta::emulate {

enum class FloatFormat : uint8_t { F16, BF16, F32, F64 };
enum class RoundMode : uint8_t { NearestEven, TowardZero, Down, Up };

uint32_t format_bits(FloatFormat f); // 16, 16, 32 or 64

// Exact value of an encoding (every f16/bf16/f32 value is a double).
double decode(FloatFormat f, uint64_t bits);
// The encoding of `x` rounded to the format with the mode (x itself may be any double).
uint64_t encode(FloatFormat f, double x, RoundMode mode);
uint64_t canonical_nan(FloatFormat f);
bool is_nan(FloatFormat f, uint64_t bits);
bool is_subnormal(FloatFormat f, uint64_t bits);
// Flushes a subnormal encoding to a zero of its sign (the .ftz rule); other bits unchanged.
uint64_t flush(FloatFormat f, uint64_t bits);

enum class Arith : uint8_t { Add, Sub, Mul, Div, Fma, Sqrt, Rcp };
// An IEEE operation (one to three operands: fma uses c) correctly rounded with `mode`. With
// `ftz`, a tiny result is a zero of its sign, tiny as IEEE 754 detects it after rounding: the
// result rounded to the format's precision *with an unbounded exponent* is below the smallest
// normal. (Rounding in the format instead, with its subnormal spacing, keeps FLT_MIN * (1 -
// 2^-24), a tie that rounds up to FLT_MIN; an H200 flushes it, and keeps the products that
// round to FLT_MIN with 24 bits: scripts/hardware-check's sweep_*_tiny.)
uint64_t arith(Arith op, FloatFormat f, RoundMode mode, uint64_t a, uint64_t b = 0, uint64_t c = 0,
               bool ftz = false);
// arith(op, F32, NearestEven, ..., false) for the lanes of `mask` (bit l: lane l) of a warp, in
// one loop: operand i of lane l is column[i][l], or immediate[i] where column[i] is null (the
// low 32 bits of either); out[l] gets the result's bits masked to `out_width`. The same bits and
// events as arith() lane by lane. For add, sub, mul and fma; false (nothing done) for another
// operation or where that path does not apply (a host that flushes subnormals): the caller goes
// lane by lane then.
struct F32Operands {
  const uint64_t* column[3] = {nullptr, nullptr, nullptr};
  uint64_t immediate[3] = {0, 0, 0};
};
bool arith_f32_lanes(Arith op, const F32Operands& x, uint32_t mask, uint64_t* out,
                     uint32_t out_width);
// arith(op, f, NearestEven, a, b) for the lanes of `mask`, as arith_f32_lanes, where the exact
// result is a double: f16 add, sub and mul, bf16 mul (operands: the low 16 bits). False (nothing
// done) for another operation or format.
bool arith_half_lanes(Arith op, FloatFormat f, const F32Operands& x, uint32_t mask, uint64_t* out,
                      uint32_t out_width);
// The general method of arith() for every format and mode (round to odd in double, then to the
// format). arith() takes a faster path for f32 with round-to-nearest-even and no .ftz — the
// host's binary32 arithmetic, which is correctly rounded — that must give the same bits
// (tests/emulate/float_semantics_test.cpp compares the two); exposed for that test.
uint64_t arith_by_rounding(Arith op, FloatFormat f, RoundMode mode, uint64_t a, uint64_t b = 0,
                           uint64_t c = 0, bool ftz = false);

// div.approx.f32 without a mode and div.full.f32: the quotient rounded to nearest-even (within
// their 2-ulp bounds), recorded as an operation over the reals.
uint64_t divide_nearest(FloatFormat f, uint64_t a, uint64_t b);

// A float value converted to another float format (cvt between f16, bf16, f32, f64): the
// encoding of `x` with the mode, recorded as an operation over the reals (the contract reads a
// width change as exact). Integer-to-float conversions (from_integer) are modelled exactly and
// are not recorded.
uint64_t convert(FloatFormat to, double x, RoundMode mode);
// The conversions a tiled f16/bf16 kernel makes on every element, straight from the bits: the
// same bits and events as convert() of the decoded value (tests/emulate/float_semantics_test.cpp
// compares them). widen_to_f32: f16 or bf16 to f32 (exact); narrow_f32_nearest: f32 to f16 or
// bf16 rounded to nearest-even.
uint32_t widen_to_f32(FloatFormat from, uint16_t bits);
uint16_t narrow_f32_nearest(FloatFormat to, uint32_t bits);

// What IEEE arithmetic did on this thread, since the last reset, that the reals do not (counts
// of operations, each counted once under the first that applies):
struct RealArithmeticEvents {
  uint64_t invalid = 0;          // a NaN from operands that are not NaN (0/0, inf - inf, sqrt(-1))
  uint64_t division_by_zero = 0; // an infinity from finite operands, exactly (x/0, rcp(0), lg2(0))
  uint64_t overflow = 0;         // a finite result rounded to an infinity (or to MAX, with .rz)
  uint64_t underflow = 0;        // a nonzero result rounded or flushed (.ftz) to a zero
  uint64_t inexact = 0;          // any other rounding
  // A NaN or an infinity that the reals do not have (the first three).
  uint64_t exceptional() const { return invalid + division_by_zero + overflow; }
  uint64_t count() const { return exceptional() + underflow + inexact; }
  bool any() const { return count() != 0; }
  RealArithmeticEvents& operator+=(const RealArithmeticEvents& more) {
    invalid += more.invalid;
    division_by_zero += more.division_by_zero;
    overflow += more.overflow;
    underflow += more.underflow;
    inexact += more.inexact;
    return *this;
  }
};
// This thread's events (the emulator runs a launch on the calling thread).
RealArithmeticEvents& real_arithmetic_events();
void reset_real_arithmetic_events();

// The approximate functions. The model: the exact function value (computed in double by the
// C library, whose error for these functions is below 1 ulp of double, far below half an ulp of
// f32) rounded to nearest-even in the format. This is within every error bound the PTX ISA
// documents for the approximate instructions (ex2/lg2/rsqrt/sqrt/sin/cos/tanh/rcp .approx;
// div.approx and div.full allow 2 ulp), so it is one admissible implementation; a GPU may
// return a result that differs from ours by up to that bound.
enum class Approx : uint8_t { Ex2, Lg2, Rcp, Rsqrt, Sqrt, Sin, Cos, Tanh, Exp };
uint64_t approx(Approx fn, FloatFormat f, uint64_t a);

// min/max with PTX's NaN rule: a NaN operand is ignored; both NaN gives the canonical NaN.
// -0 is below +0.
uint64_t fmin(FloatFormat f, uint64_t a, uint64_t b, bool propagate_nan);
uint64_t fmax(FloatFormat f, uint64_t a, uint64_t b, bool propagate_nan);

// Clamps to [0, 1] (NaN becomes +0), the .sat rule.
uint64_t saturate(FloatFormat f, uint64_t bits);

// Rounds a double to an integral double with the mode (cvt.rni/rzi/rmi/rpi).
double round_integral(double x, RoundMode mode);

// An integer of 64 bits (signed or not) converted to the format with the mode.
uint64_t from_integer(FloatFormat f, uint64_t bits, bool is_signed, RoundMode mode);

} // namespace volta::emulate
