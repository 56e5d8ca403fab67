#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <vector>

#include "engine/emulate/float_semantics.hpp"

namespace volta::emulate {
namespace {

uint64_t f32(float x) {
  return std::bit_cast<uint32_t>(x);
}

TEST(FloatSemantics, HalfEncodingRoundsToNearestEven) {
  EXPECT_EQ(encode(FloatFormat::F16, 1.0, RoundMode::NearestEven), 0x3c00u);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
  EXPECT_EQ(encode(FloatFormat::F16, 1.0 + std::ldexp(1.0, -11), RoundMode::NearestEven), 0x3c00u);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: ties to even (1 + 2^-9).
  EXPECT_EQ(encode(FloatFormat::F16, 1.0 + 3 * std::ldexp(1.0, -11), RoundMode::NearestEven),
            0x3c02u);
  EXPECT_EQ(encode(FloatFormat::F16, 1.0 + std::ldexp(1.0, -11), RoundMode::Up), 0x3c01u);
  EXPECT_EQ(encode(FloatFormat::F16, 65520.0, RoundMode::NearestEven), 0x7c00u); // overflow
  EXPECT_EQ(encode(FloatFormat::F16, 65520.0, RoundMode::TowardZero), 0x7bffu);  // max finite
  EXPECT_EQ(encode(FloatFormat::F16, std::ldexp(1.0, -24), RoundMode::NearestEven), 0x0001u);
  EXPECT_EQ(encode(FloatFormat::F16, std::ldexp(1.0, -26), RoundMode::NearestEven), 0x0000u);
  EXPECT_EQ(encode(FloatFormat::F16, -std::ldexp(1.0, -26), RoundMode::Down), 0x8001u);
  EXPECT_DOUBLE_EQ(decode(FloatFormat::F16, 0x3555), 0.333251953125);
  EXPECT_EQ(encode(FloatFormat::BF16, 1.0 + std::ldexp(1.0, -8), RoundMode::NearestEven), 0x3f80u);
}

// encode's fast path works on the bits of the double (no floating-point operation); this checks
// its results against the definition of each rounding: the encoded value and its neighbours in
// the format bracket x as the mode requires, across the normal range, near ties and at the
// borders with the subnormals and the overflow.
TEST(FloatSemantics, EncodingRoundsByTheDefinitionOfEachMode) {
  struct Format {
    FloatFormat f;
    int p, emin, emax;
    uint64_t sign_bit;
  };
  const Format formats[] = {{FloatFormat::F16, 11, -14, 15, 0x8000},
                            {FloatFormat::BF16, 8, -126, 127, 0x8000},
                            {FloatFormat::F32, 24, -126, 127, 0x80000000}};
  const RoundMode modes[] = {RoundMode::NearestEven, RoundMode::TowardZero, RoundMode::Up,
                             RoundMode::Down};
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (const Format& fm : formats) {
    const uint64_t inf_bits = encode(fm.f, INFINITY, RoundMode::NearestEven);
    for (int i = 0; i < 200000; ++i) {
      // A significand with a few random bits past the format's precision (ties, near ties).
      const uint64_t r = next();
      const int e =
          fm.emin - 3 + static_cast<int>(r % static_cast<uint64_t>(fm.emax - fm.emin + 5));
      uint64_t frac = next() & ((uint64_t{1} << 52) - 1);
      if (i % 3 == 0) // exactly halfway or one double ulp away from it
        frac = (frac & ~((uint64_t{1} << (53 - fm.p)) - 1)) | (uint64_t{1} << (52 - fm.p)) |
               ((next() % 3) == 0 ? 1 : 0);
      double x = std::ldexp(std::bit_cast<double>((uint64_t{1023} << 52) | frac), e);
      if (r & (uint64_t{1} << 63))
        x = -x;
      for (const RoundMode mode : modes) {
        const uint64_t bits = encode(fm.f, x, mode);
        const bool neg = (bits & fm.sign_bit) != 0;
        ASSERT_EQ(neg, x < 0) << x;
        const uint64_t mag = bits & ~fm.sign_bit;
        const double ax = std::fabs(x);
        const double v = decode(fm.f, mag);
        // Toward zero / away from zero in magnitude terms.
        const bool magnitude_down = mode == RoundMode::TowardZero ||
                                    (mode == RoundMode::Up && neg) ||
                                    (mode == RoundMode::Down && !neg);
        const double below = mag == 0 ? 0.0 : decode(fm.f, mag - 1);
        const double above = mag == inf_bits ? INFINITY : decode(fm.f, mag + 1);
        if (mode == RoundMode::NearestEven) {
          if (mag == inf_bits) { // overflow: x at or past the midpoint above the largest finite
            const double top = decode(fm.f, inf_bits - 1);
            ASSERT_GE(ax, top + std::ldexp(1.0, fm.emax - fm.p)) << x;
            continue;
          }
          const double dv = std::fabs(ax - v), dlo = ax - below, dhi = above - ax;
          ASSERT_LE(dv, dhi) << x;
          if (mag != 0)
            ASSERT_LE(dv, std::fabs(dlo)) << x;
          if ((dv == dhi || (mag != 0 && dv == dlo)) && dv != 0)
            ASSERT_EQ(mag & 1, 0u) << "a tie goes to the even neighbour: " << x;
        } else if (magnitude_down) {
          ASSERT_LE(v, ax) << x;
          ASSERT_GT(above, ax) << x;
        } else {
          ASSERT_GE(v, ax) << x;
          ASSERT_LT(below, ax) << x;
        }
      }
    }
  }
  // The carry out of the largest binade: to infinity, or the largest finite value.
  const double past_max = std::ldexp(2.0 - std::ldexp(1.0, -24), 127); // midpoint above FLT_MAX
  EXPECT_EQ(encode(FloatFormat::F32, past_max, RoundMode::NearestEven), 0x7f800000u);
  EXPECT_EQ(encode(FloatFormat::F32, past_max, RoundMode::TowardZero), 0x7f7fffffu);
  EXPECT_EQ(encode(FloatFormat::F32, -past_max, RoundMode::Up), 0xff7fffffu);
  EXPECT_EQ(encode(FloatFormat::F32, -past_max, RoundMode::Down), 0xff800000u);
  EXPECT_EQ(encode(FloatFormat::BF16, std::ldexp(255.5, 120), RoundMode::NearestEven), 0x7f80u);
  EXPECT_EQ(decode(FloatFormat::F16, 0xfbff), -65504.0);
  EXPECT_EQ(decode(FloatFormat::F16, 0x0400), std::ldexp(1.0, -14));
}

TEST(FloatSemantics, F32RoundingModesOfAddition) {
  const uint64_t one = f32(1.0f), tiny = f32(std::ldexp(1.0f, -30));
  EXPECT_EQ(arith(Arith::Add, FloatFormat::F32, RoundMode::NearestEven, one, tiny), one);
  EXPECT_EQ(arith(Arith::Add, FloatFormat::F32, RoundMode::TowardZero, one, tiny), one);
  EXPECT_EQ(arith(Arith::Add, FloatFormat::F32, RoundMode::Up, one, tiny),
            f32(std::nextafter(1.0f, 2.0f)));
  EXPECT_EQ(arith(Arith::Sub, FloatFormat::F32, RoundMode::Down, one, tiny),
            f32(std::nextafter(1.0f, 0.0f)));
  EXPECT_EQ(arith(Arith::Sub, FloatFormat::F32, RoundMode::Down, one, one), f32(-0.0f));
  EXPECT_EQ(arith(Arith::Sub, FloatFormat::F32, RoundMode::NearestEven, one, one), f32(0.0f));
}

TEST(FloatSemantics, F32MatchesHostArithmeticInNearestMode) {
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state;
  };
  for (int i = 0; i < 20000; ++i) {
    const float a = std::bit_cast<float>(next()), b = std::bit_cast<float>(next()),
                c = std::bit_cast<float>(next());
    if (std::isnan(a) || std::isnan(b) || std::isnan(c))
      continue;
    auto check = [&](Arith op, float expected) {
      const uint64_t got =
          arith(op, FloatFormat::F32, RoundMode::NearestEven, f32(a), f32(b), f32(c));
      if (std::isnan(expected))
        EXPECT_TRUE(is_nan(FloatFormat::F32, got));
      else
        EXPECT_EQ(got, f32(expected)) << a << " " << b << " " << c << " op " << int(op);
    };
    check(Arith::Add, a + b);
    check(Arith::Mul, a * b);
    check(Arith::Div, a / b);
    check(Arith::Fma, std::fma(a, b, c));
  }
}

// arith() computes f32 round-to-nearest on the host; arith_by_rounding() rounds to odd in
// double and then to f32 in software. Two methods, one answer: the same bits and the same
// events, on random encodings (every class: subnormals, infinities, huge and tiny exponents)
// and on operands picked to overflow, underflow, cancel and divide by zero.
TEST(FloatSemantics, FastF32PathAgreesWithRoundingToOdd) {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<uint32_t>(state);
  };
  const uint32_t edges[] = {0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000,
                            0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x3f800000,
                            0xbf800000, 0x7fc00000, 0x0c000000, 0x72000000, 0x33800000};
  auto operand = [&]() -> uint32_t {
    const uint32_t r = next();
    switch (r % 4) {
    case 0:
      return edges[(r >> 8) % std::size(edges)];
    case 1: // exponents near 1, where sums cancel
      return (next() & 0x807fffff) | (0x3f000000 + ((r >> 8) % 4) * 0x00800000);
    default:
      return next();
    }
  };
  size_t compared = 0;
  for (int i = 0; i < 60000; ++i) {
    const uint32_t a = operand(), b = operand(), c = operand();
    for (Arith op :
         {Arith::Add, Arith::Sub, Arith::Mul, Arith::Div, Arith::Fma, Arith::Sqrt, Arith::Rcp}) {
      reset_real_arithmetic_events();
      const uint64_t fast = arith(op, FloatFormat::F32, RoundMode::NearestEven, a, b, c);
      const RealArithmeticEvents e1 = real_arithmetic_events();
      reset_real_arithmetic_events();
      const uint64_t slow =
          arith_by_rounding(op, FloatFormat::F32, RoundMode::NearestEven, a, b, c);
      const RealArithmeticEvents e2 = real_arithmetic_events();
      const auto where = ::testing::Message()
                         << std::hex << "op " << int(op) << " a " << a << " b " << b << " c " << c;
      ASSERT_EQ(fast, slow) << where;
      ASSERT_EQ(e1.invalid, e2.invalid) << where;
      ASSERT_EQ(e1.division_by_zero, e2.division_by_zero) << where;
      ASSERT_EQ(e1.overflow, e2.overflow) << where;
      ASSERT_EQ(e1.underflow, e2.underflow) << where;
      ASSERT_EQ(e1.inexact, e2.inexact) << where;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 7u * 60000u);
}

// The warp loop (arith_f32_lanes: the host's FMA unit where it has one, events summed once per
// warp) against rounding to odd lane by lane: the same bits and the same event counts, for
// register and immediate operands, a partial lane mask and a narrower destination register.
TEST(FloatSemantics, F32WarpLanesAgreeWithRoundingToOdd) {
  uint64_t state = 0x243f6a8885a308d3ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<uint32_t>(state);
  };
  const uint32_t edges[] = {0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000,
                            0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x3f800000,
                            0xbf800000, 0x7fc00000, 0xffa00001, 0x0c000000, 0x72000000};
  auto operand = [&]() -> uint64_t {
    const uint32_t r = next();
    // High bits above the f32: a register of 64 bits holds them; the operation reads the low 32.
    const uint64_t high = (r & 16) != 0 ? uint64_t{next()} << 32 : 0;
    switch (r % 4) {
    case 0:
      return high | edges[(r >> 8) % std::size(edges)];
    case 1:
      return high | (next() & 0x807fffff) | (0x3f000000 + ((r >> 8) % 4) * 0x00800000);
    default:
      return high | next();
    }
  };
  size_t lanes_compared = 0;
  for (int round = 0; round < 3000; ++round) {
    for (Arith op : {Arith::Add, Arith::Sub, Arith::Mul, Arith::Fma}) {
      uint64_t columns[3][32];
      F32Operands x;
      for (int i = 0; i < 3; ++i) {
        for (auto& v : columns[i])
          v = operand();
        if ((next() & 3) == 0)
          x.immediate[i] = operand() & 0xffffffffu; // one value for every lane
        else
          x.column[i] = columns[i];
      }
      const uint32_t mask = (round % 5 == 0) ? next() : 0xffffffffu;
      const uint32_t out_width = (round % 7 == 0) ? 16 : 32;
      uint64_t out[32];
      std::fill(std::begin(out), std::end(out), 0xdeadbeefull);
      reset_real_arithmetic_events();
      ASSERT_TRUE(arith_f32_lanes(op, x, mask, out, out_width));
      const RealArithmeticEvents warp = real_arithmetic_events();
      reset_real_arithmetic_events();
      for (uint32_t l = 0; l < 32; ++l) {
        if ((mask >> l & 1) == 0) {
          ASSERT_EQ(out[l], 0xdeadbeefull) << "lane " << l << " is not in the mask";
          continue;
        }
        auto at = [&](int i) {
          return (x.column[i] ? x.column[i][l] : x.immediate[i]) & 0xffffffffu;
        };
        const uint64_t want =
            arith_by_rounding(op, FloatFormat::F32, RoundMode::NearestEven, at(0), at(1), at(2)) &
            ((uint64_t{1} << out_width) - 1);
        ASSERT_EQ(out[l], want) << std::hex << "op " << int(op) << " lane " << l << " a " << at(0)
                                << " b " << at(1) << " c " << at(2);
        ++lanes_compared;
      }
      const RealArithmeticEvents lanes = real_arithmetic_events();
      ASSERT_EQ(warp.invalid, lanes.invalid);
      ASSERT_EQ(warp.division_by_zero, lanes.division_by_zero);
      ASSERT_EQ(warp.overflow, lanes.overflow);
      ASSERT_EQ(warp.underflow, lanes.underflow);
      ASSERT_EQ(warp.inexact, lanes.inexact);
    }
  }
  EXPECT_GT(lanes_compared, 300000u);
}

// A full warp of ordinary fma operands (the vector loop's case where the host has one): finite
// values of every exponent range, exact products and sums (small integers), results that
// cancel to subnormals, and now and then one special lane, which sends the whole warp to the
// scalar loop. The same bits and events as rounding to odd, lane by lane.
TEST(FloatSemantics, F32FmaOfAFullWarpAgreesWithRoundingToOdd) {
  uint64_t state = 0x452821e638d01377ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<uint32_t>(state);
  };
  auto ordinary = [&](uint32_t kind) -> uint32_t {
    const uint32_t sign = next() & 0x80000000u;
    switch (kind % 4) {
    case 0: // a small integer: exact products and sums
      return std::bit_cast<uint32_t>(static_cast<float>(static_cast<int>(next() % 64) - 31));
    case 1: // near 1, where sums cancel
      return sign | (next() & 0x007fffff) | 0x3f800000;
    case 2: // tiny: products underflow toward subnormals
      return sign | (next() & 0x007fffff) | ((1 + next() % 40) << 23);
    default: // any finite exponent
      return sign | (next() & 0x007fffff) | ((1 + next() % 254) << 23);
    }
  };
  size_t lanes = 0;
  for (int round = 0; round < 4000; ++round) {
    uint64_t col[3][32];
    const uint32_t kind = next();
    for (auto& c : col)
      for (auto& v : c)
        v = ordinary(kind);
    if (round % 9 == 0) // one special lane: NaN, infinity or a zero result
      col[next() % 3][next() % 32] = (next() & 1) != 0 ? 0x7fc00000u : 0xff800000u;
    if (round % 11 == 0) { // c = -a*b exactly in one lane: a zero result
      const uint32_t l = next() % 32;
      col[0][l] = 0x40000000u, col[1][l] = 0x40400000u, col[2][l] = 0xc0c00000u;
    }
    F32Operands x;
    for (int i = 0; i < 3; ++i)
      x.column[i] = col[i];
    uint64_t out[32];
    reset_real_arithmetic_events();
    ASSERT_TRUE(arith_f32_lanes(Arith::Fma, x, ~0u, out, 32));
    const RealArithmeticEvents warp = real_arithmetic_events();
    reset_real_arithmetic_events();
    for (uint32_t l = 0; l < 32; ++l) {
      const uint64_t want = arith_by_rounding(Arith::Fma, FloatFormat::F32, RoundMode::NearestEven,
                                              col[0][l], col[1][l], col[2][l]);
      ASSERT_EQ(out[l], want) << std::hex << "lane " << l << " a " << col[0][l] << " b "
                              << col[1][l] << " c " << col[2][l];
      ++lanes;
    }
    const RealArithmeticEvents each = real_arithmetic_events();
    ASSERT_EQ(warp.invalid, each.invalid) << round;
    ASSERT_EQ(warp.division_by_zero, each.division_by_zero) << round;
    ASSERT_EQ(warp.overflow, each.overflow) << round;
    ASSERT_EQ(warp.underflow, each.underflow) << round;
    ASSERT_EQ(warp.inexact, each.inexact) << round;
  }
  EXPECT_EQ(lanes, 4000u * 32u);
}

// The directed roundings of add, sub, mul and fma (rounded to odd in double without the
// floating-point environment, then to f32) against the host's f32 arithmetic in that mode.
TEST(FloatSemantics, DirectedRoundingsMatchHostF32Arithmetic) {
  uint64_t state = 0x2545f4914f6cdd1dull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<uint32_t>(state);
  };
  auto operand = [&]() -> uint32_t {
    const uint32_t r = next();
    switch (r % 4) {
    case 0: // exponents near 1, where sums cancel
      return (next() & 0x807fffff) | (0x3f000000 + ((r >> 8) % 4) * 0x00800000);
    case 1: // small numbers, subnormal results
      return (next() & 0x80ffffff);
    default:
      return next();
    }
  };
  const std::pair<RoundMode, int> modes[] = {{RoundMode::TowardZero, FE_TOWARDZERO},
                                             {RoundMode::Up, FE_UPWARD},
                                             {RoundMode::Down, FE_DOWNWARD},
                                             {RoundMode::NearestEven, FE_TONEAREST}};
  for (int i = 0; i < 100000; ++i) {
    const uint32_t a = operand(), b = operand(), c = operand();
    volatile float fa = std::bit_cast<float>(a), fb = std::bit_cast<float>(b),
                   fc = std::bit_cast<float>(c);
    for (const auto& [mode, host] : modes) {
      for (Arith op : {Arith::Add, Arith::Sub, Arith::Mul, Arith::Fma}) {
        std::fesetround(host);
        volatile float r = op == Arith::Add   ? fa + fb
                           : op == Arith::Sub ? fa - fb
                           : op == Arith::Mul ? fa * fb
                                              : std::fmaf(fa, fb, fc);
        std::fesetround(FE_TONEAREST);
        const float rv = r;
        const uint64_t want = std::isnan(rv) ? 0x7fffffffu : std::bit_cast<uint32_t>(rv);
        ASSERT_EQ(arith_by_rounding(op, FloatFormat::F32, mode, a, b, c), want)
            << std::hex << "op " << int(op) << " mode " << int(mode) << " a " << a << " b " << b
            << " c " << c;
      }
    }
  }
}

// Exact zero results, which random operands almost never give: their sign is IEEE 754 §6.3's
// (+0, or -0 when rounding down, unless both addends are zeros of one sign). Fuzzer 16:93165:
// fma.rm of -1 * -1 + -1 was +0.
TEST(FloatSemantics, ExactZeroSumsTakeTheSignOfTheRoundingMode) {
  const float values[] = {0.0f, -0.0f, 1.0f, -1.0f, 3.5f, -3.5f, 0x1p-140f, -0x1p-140f};
  const std::pair<RoundMode, int> modes[] = {{RoundMode::TowardZero, FE_TOWARDZERO},
                                             {RoundMode::Up, FE_UPWARD},
                                             {RoundMode::Down, FE_DOWNWARD},
                                             {RoundMode::NearestEven, FE_TONEAREST}};
  int exact_zeros = 0;
  for (volatile float a : values)
    for (volatile float b : values)
      for (volatile float c : values)
        for (const auto& [mode, host] : modes)
          for (Arith op : {Arith::Add, Arith::Sub, Arith::Fma}) {
            std::fesetround(host);
            volatile float r = op == Arith::Add   ? a + b
                               : op == Arith::Sub ? a - b
                                                  : std::fmaf(a, b, c);
            std::fesetround(FE_TONEAREST);
            const float rv = r;
            exact_zeros += rv == 0.0f;
            ASSERT_EQ(arith_by_rounding(op, FloatFormat::F32, mode, f32(a), f32(b), f32(c)),
                      f32(rv))
                << "op " << int(op) << " mode " << int(mode) << " " << a << " " << b << " " << c;
          }
  EXPECT_GT(exact_zeros, 100);
  // The narrow formats take the same path: f16's -1 * -1 + -1 rounded down is -0.
  EXPECT_EQ(
      arith_by_rounding(Arith::Fma, FloatFormat::F16, RoundMode::Down, 0xbc00, 0xbc00, 0xbc00),
      0x8000u);
  EXPECT_EQ(arith_by_rounding(Arith::Fma, FloatFormat::F16, RoundMode::Up, 0xbc00, 0xbc00, 0xbc00),
            0x0000u);
}

TEST(FloatSemantics, EventsTellRoundingOverflowUnderflowAndNaNApart) {
  auto events_of = [](auto fn) {
    reset_real_arithmetic_events();
    fn();
    return real_arithmetic_events();
  };
  const auto F = FloatFormat::F32;
  const auto RN = RoundMode::NearestEven;
  // 1 + 2 is exact: nothing; 1 + 2^-30 rounds.
  EXPECT_FALSE(events_of([&] { arith(Arith::Add, F, RN, f32(1.0f), f32(2.0f)); }).any());
  EXPECT_EQ(events_of([&] { arith(Arith::Add, F, RN, f32(1.0f), f32(0x1p-30f)); }).inexact, 1u);
  // MAX * 2 overflows; MIN_NORMAL * 2^-30 underflows to 0; 1/0 divides by zero; 0/0 is NaN.
  EXPECT_EQ(events_of([&] { arith(Arith::Mul, F, RN, 0x7f7fffff, f32(2.0f)); }).overflow, 1u);
  EXPECT_EQ(events_of([&] { arith(Arith::Mul, F, RN, 0x00800000, f32(0x1p-30f)); }).underflow, 1u);
  EXPECT_EQ(events_of([&] { arith(Arith::Div, F, RN, f32(1.0f), f32(0.0f)); }).division_by_zero,
            1u);
  EXPECT_EQ(events_of([&] { arith(Arith::Div, F, RN, f32(0.0f), f32(0.0f)); }).invalid, 1u);
  // A NaN operand propagates (no event); an infinity operand is exact arithmetic.
  EXPECT_FALSE(events_of([&] { arith(Arith::Add, F, RN, 0x7fc00000, f32(1.0f)); }).any());
  EXPECT_FALSE(events_of([&] { arith(Arith::Mul, F, RN, 0x7f800000, f32(2.0f)); }).any());
  EXPECT_EQ(events_of([&] { arith(Arith::Sub, F, RN, 0x7f800000, 0x7f800000); }).invalid, 1u);
  // With .ftz a subnormal operand is flushed: an underflow.
  EXPECT_EQ(events_of([&] { arith(Arith::Mul, F, RN, 0x00000001, f32(1.0f), 0, true); }).underflow,
            1u);
  // Width changes: f32 70000 to f16 overflows, 1/3 rounds; integers are modelled exactly.
  EXPECT_EQ(events_of([&] { convert(FloatFormat::F16, 70000.0, RN); }).overflow, 1u);
  EXPECT_EQ(events_of([&] { convert(FloatFormat::F16, 1.0 / 3.0, RN); }).inexact, 1u);
  EXPECT_FALSE(events_of([&] { from_integer(FloatFormat::F16, 70000, false, RN); }).any());
  // ex2 of 200 overflows f32, of -200 underflows; lg2(0) is -inf from a number; lg2(-1) NaN.
  EXPECT_EQ(events_of([&] { approx(Approx::Ex2, F, f32(200.0f)); }).overflow, 1u);
  EXPECT_EQ(events_of([&] { approx(Approx::Ex2, F, f32(-200.0f)); }).underflow, 1u);
  EXPECT_EQ(events_of([&] { approx(Approx::Ex2, F, f32(-5000.0f)); }).underflow, 1u);
  EXPECT_EQ(events_of([&] { approx(Approx::Lg2, F, f32(0.0f)); }).division_by_zero, 1u);
  EXPECT_EQ(events_of([&] { approx(Approx::Lg2, F, f32(-1.0f)); }).invalid, 1u);
  // f64 through the host's flags.
  const uint64_t big = std::bit_cast<uint64_t>(1e300), third = std::bit_cast<uint64_t>(1.0 / 3);
  EXPECT_EQ(events_of([&] { arith(Arith::Mul, FloatFormat::F64, RN, big, big); }).overflow, 1u);
  EXPECT_EQ(events_of([&] {
              arith(Arith::Mul, FloatFormat::F64, RN, third, std::bit_cast<uint64_t>(3.0));
            }).inexact +
                events_of([&] {
                  arith(Arith::Add, FloatFormat::F64, RN, third, std::bit_cast<uint64_t>(1e-30));
                }).inexact,
            2u);
}

TEST(FloatSemantics, MinMaxIgnoreNaN) {
  const uint64_t nan = 0x7fc00000, two = f32(2.0f);
  EXPECT_EQ(fmin(FloatFormat::F32, nan, two, false), two);
  EXPECT_EQ(fmax(FloatFormat::F32, two, nan, false), two);
  EXPECT_EQ(fmin(FloatFormat::F32, nan, nan, false), 0x7fffffffu);
  EXPECT_EQ(fmax(FloatFormat::F32, nan, two, true), 0x7fffffffu);
  EXPECT_EQ(fmin(FloatFormat::F32, f32(0.0f), f32(-0.0f), false), f32(-0.0f));
  EXPECT_EQ(fmax(FloatFormat::F32, f32(-0.0f), f32(0.0f), false), f32(0.0f));
}

TEST(FloatSemantics, IntegerConversions) {
  // 2^24 + 1 is not an f32: nearest-even gives 2^24, up gives 2^24 + 2.
  EXPECT_EQ(from_integer(FloatFormat::F32, 16777217, true, RoundMode::NearestEven),
            f32(16777216.0f));
  EXPECT_EQ(from_integer(FloatFormat::F32, 16777217, true, RoundMode::Up), f32(16777218.0f));
  EXPECT_EQ(from_integer(FloatFormat::F32, ~uint64_t{0}, false, RoundMode::TowardZero),
            f32(std::nextafter(18446744073709551616.0f, 0.0f)));
  EXPECT_EQ(from_integer(FloatFormat::F32, static_cast<uint64_t>(-3), true, RoundMode::NearestEven),
            f32(-3.0f));
  EXPECT_EQ(round_integral(-2.5, RoundMode::NearestEven), -2.0);
  EXPECT_EQ(round_integral(2.5, RoundMode::NearestEven), 2.0);
  EXPECT_EQ(round_integral(3.5, RoundMode::NearestEven), 4.0);
  EXPECT_EQ(round_integral(-2.5, RoundMode::Down), -3.0);
  EXPECT_EQ(round_integral(-2.5, RoundMode::Up), -2.0);
  EXPECT_EQ(round_integral(-2.5, RoundMode::TowardZero), -2.0);
}

bool same_events(const RealArithmeticEvents& a, const RealArithmeticEvents& b) {
  return a.invalid == b.invalid && a.division_by_zero == b.division_by_zero &&
         a.overflow == b.overflow && a.underflow == b.underflow && a.inexact == b.inexact;
}

// widen_to_f32 against convert() of the decoded value, for every f16 and bf16 encoding: the
// same bits, and no event (a widening is exact).
TEST(FloatSemantics, WideningFromTheBitsAgreesWithConvertOnEveryEncoding) {
  for (FloatFormat from : {FloatFormat::F16, FloatFormat::BF16}) {
    for (uint32_t h = 0; h <= 0xffff; ++h) {
      reset_real_arithmetic_events();
      const uint64_t want = convert(FloatFormat::F32, decode(from, h), RoundMode::NearestEven);
      const RealArithmeticEvents by_convert = real_arithmetic_events();
      reset_real_arithmetic_events();
      const uint32_t got = widen_to_f32(from, static_cast<uint16_t>(h));
      ASSERT_EQ(got, want) << "format " << static_cast<int>(from) << " bits " << h;
      ASSERT_TRUE(same_events(real_arithmetic_events(), by_convert)) << h;
    }
  }
}

// narrow_f32_nearest against convert() of the f32 value to f16 and bf16 with round-to-nearest-
// even: bits and events, on every exponent (both signs) with the significands that decide a
// rounding (ties, one above and below them, the carries) and random ones. VOLTA_EXHAUSTIVE=1
// runs all 2^32 encodings (about four minutes).
TEST(FloatSemantics, NarrowingFromTheBitsAgreesWithConvert) {
  const bool exhaustive = std::getenv("VOLTA_EXHAUSTIVE") != nullptr;
  std::vector<uint32_t> significands = {0, 1, 2, 0x7fffff, 0x7ffffe, 0x400000, 0x3fffff};
  for (uint32_t drop : {13u, 16u}) // the f16 and bf16 roundings of a normal
    for (uint32_t kept : {0u, 1u, 2u, 3u, 0x3ffu, 0x7fu})
      for (int32_t d : {-1, 0, 1})
        significands.push_back(((kept << drop) + (1u << (drop - 1)) + d) & 0x7fffffu);
  for (uint32_t shift = 1; shift < 24; ++shift) // the ties of every subnormal f16 rounding
    for (int32_t d : {-1, 0, 1})
      significands.push_back(((1u << shift) + (1u << (shift - 1)) + d) & 0x7fffffu);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 300; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    significands.push_back(static_cast<uint32_t>(state >> 41) & 0x7fffffu);
  }
  auto check = [](FloatFormat to, uint32_t bits) {
    reset_real_arithmetic_events();
    const uint64_t want = convert(to, decode(FloatFormat::F32, bits), RoundMode::NearestEven);
    const RealArithmeticEvents by_convert = real_arithmetic_events();
    reset_real_arithmetic_events();
    const uint16_t got = narrow_f32_nearest(to, bits);
    const RealArithmeticEvents by_bits = real_arithmetic_events();
    return got == want && same_events(by_bits, by_convert);
  };
  for (FloatFormat to : {FloatFormat::F16, FloatFormat::BF16}) {
    if (exhaustive) {
      for (uint64_t bits = 0; bits <= 0xffffffffull; ++bits)
        ASSERT_TRUE(check(to, static_cast<uint32_t>(bits))) << std::hex << bits;
      continue;
    }
    for (uint32_t sign : {0u, 0x80000000u})
      for (uint32_t exponent = 0; exponent <= 0xff; ++exponent)
        for (uint32_t significand : significands) {
          const uint32_t bits = sign | exponent << 23 | significand;
          ASSERT_TRUE(check(to, bits))
              << "format " << static_cast<int>(to) << std::hex << " bits 0x" << bits;
        }
  }
}

// arith_half_lanes against arith_by_rounding lane by lane (f16 add, sub, mul; bf16 mul): bits
// and events, on every pair of a set of encodings that holds each class (zeros of both signs,
// subnormals, the largest values, infinities, NaNs) and on random pairs, under partial masks and
// immediates; and it refuses what it does not compute.
TEST(FloatSemantics, HalfWarpLanesAgreeWithRoundingToOdd) {
  std::vector<uint16_t> values = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00,
                                  0x3c01, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7f80, 0xff80,
                                  0x7fc0, 0x0080, 0x007f, 0x7f7f, 0x3f80, 0x3555, 0x5640, 0x1400};
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint16_t>(state >> 48);
  };
  for (int i = 0; i < 40; ++i)
    values.push_back(next());
  struct Case {
    Arith op;
    FloatFormat f;
  };
  for (const Case c : {Case{Arith::Add, FloatFormat::F16}, Case{Arith::Sub, FloatFormat::F16},
                       Case{Arith::Mul, FloatFormat::F16}, Case{Arith::Mul, FloatFormat::BF16}}) {
    auto compare = [&](const uint64_t(&a)[32], const uint64_t(&b)[32], uint32_t mask,
                       bool immediate_b) {
      F32Operands x;
      x.column[0] = a;
      if (immediate_b)
        x.immediate[1] = b[0];
      else
        x.column[1] = b;
      uint64_t out[32] = {};
      reset_real_arithmetic_events();
      ASSERT_TRUE(arith_half_lanes(c.op, c.f, x, mask, out, 16));
      const RealArithmeticEvents warp = real_arithmetic_events();
      reset_real_arithmetic_events();
      for (uint32_t l = 0; l < 32; ++l) {
        if ((mask >> l & 1u) == 0) {
          ASSERT_EQ(out[l], 0u) << "lane " << l << " is outside the mask";
          continue;
        }
        const uint64_t want =
            arith_by_rounding(c.op, c.f, RoundMode::NearestEven, a[l], immediate_b ? b[0] : b[l]);
        ASSERT_EQ(out[l], want) << "op " << static_cast<int>(c.op) << " format "
                                << static_cast<int>(c.f) << std::hex << " a 0x" << a[l] << " b 0x"
                                << (immediate_b ? b[0] : b[l]);
      }
      ASSERT_TRUE(same_events(warp, real_arithmetic_events()));
    };
    // Every pair of the set, a warp at a time.
    for (size_t i = 0; i < values.size(); ++i) {
      uint64_t a[32], b[32];
      for (size_t j0 = 0; j0 < values.size(); j0 += 32) {
        for (uint32_t l = 0; l < 32; ++l) {
          a[l] = values[i];
          b[l] = values[(j0 + l) % values.size()];
        }
        compare(a, b, ~0u, false);
      }
    }
    // Random pairs, partial masks, an immediate operand.
    for (int round = 0; round < 2000; ++round) {
      uint64_t a[32], b[32];
      for (uint32_t l = 0; l < 32; ++l) {
        a[l] = next();
        b[l] = next();
      }
      const uint32_t mask = round % 3 == 0 ? ~0u : (uint32_t{next()} << 16 | next());
      compare(a, b, mask, round % 5 == 0);
    }
  }
  F32Operands x;
  uint64_t out[32] = {};
  EXPECT_FALSE(arith_half_lanes(Arith::Add, FloatFormat::BF16, x, ~0u, out, 16));
  EXPECT_FALSE(arith_half_lanes(Arith::Fma, FloatFormat::F16, x, ~0u, out, 16));
  EXPECT_FALSE(arith_half_lanes(Arith::Div, FloatFormat::F16, x, ~0u, out, 16));
}

} // namespace
} // namespace volta::emulate
