#include <bit>
#include <cmath>
#include <gtest/gtest.h>

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

} // namespace
} // namespace volta::emulate
