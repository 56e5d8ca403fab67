// symbolic::ExactTerms: which terms the device computes without rounding (ops.def's `exact`
// column), so that the emulator cross-check may hold them to equality.
#include <gtest/gtest.h>

#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/exact_terms.hpp"

namespace volta::symbolic {
namespace {

class ExactTermsTest : public ::testing::Test {
protected:
  ExactTermsTest() : b(store), exact(store) { array = store.add_array_name("x"); }
  ExprId x(uint32_t i) { return store.input(array, i); }
  static FloatMods f32(bool ftz = false) {
    return FloatMods{FloatMode::Default, ftz, kFormatF32, false};
  }

  ExprStore store;
  Builder b;
  ExactTerms exact;
  uint32_t array = 0;
};

TEST_F(ExactTermsTest, MovesSignsComparisonsAndSelectsAreExact) {
  EXPECT_TRUE(exact.exact(x(0)));
  EXPECT_TRUE(exact.exact(b.neg(x(0), f32())));
  EXPECT_TRUE(exact.exact(b.abs(x(0), f32())));
  EXPECT_TRUE(exact.exact(b.max(x(0), x(1), f32())));
  const ExprId c = b.cmp(CmpKind::Lt, x(0), x(1));
  EXPECT_TRUE(exact.exact(b.select(c, x(0), b.neg(x(1), f32()))));
}

TEST_F(ExactTermsTest, ArithmeticAnywhereInTheTermRounds) {
  const ExprId sum = b.add(x(0), x(1), f32());
  EXPECT_FALSE(exact.exact(sum));
  EXPECT_FALSE(exact.exact(b.neg(sum, f32())));
  // A comparison of a rounded sum picks the arm by the device's rounding, not the reals'.
  const ExprId c = b.cmp(CmpKind::Lt, sum, x(2));
  EXPECT_FALSE(exact.exact(b.select(c, x(0), x(1))));
  EXPECT_FALSE(exact.exact(b.narrow(x(0), FloatMods{FloatMode::Rn, false, 1, false})));
}

TEST_F(ExactTermsTest, FtzFlushesASubnormalOperand) {
  EXPECT_TRUE(exact.exact(b.max(x(0), x(1), f32())));
  EXPECT_FALSE(exact.exact(b.max(x(0), x(1), f32(true))));
  EXPECT_FALSE(exact.exact(b.neg(x(0), f32(true))));
}

TEST_F(ExactTermsTest, AnIntegerConvertsExactlyOnlyWhenTheFormatHoldsItsType) {
  // The integer views of input elements: a 16-bit integer fits f32's 24 bits, a 32-bit one not.
  const ExprId i16 = b.float_bits(x(0), kFormatF16);
  const ExprId i32 = b.float_bits(x(1), kFormatF32);
  const uint8_t f32_format = static_cast<uint8_t>(FloatFormat::F32);
  EXPECT_TRUE(
      exact.exact(b.int_to_real(i16, IntType{1, true}, f32_format, RoundKind::NearestEven)));
  EXPECT_FALSE(
      exact.exact(b.int_to_real(i32, IntType{2, true}, f32_format, RoundKind::NearestEven)));
}

} // namespace
} // namespace volta::symbolic
