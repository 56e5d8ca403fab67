// symbolic::BitEquality: provable equality of stored bits modulo the bitwise commutativity of
// f32 add/mul/fma products and integer operations, never associativity, never min/max, never
// values whose bits the model does not know (docs/semantics.md, "Synchronization").
#include <gtest/gtest.h>
#include <vector>

#include "engine/symbolic/bit_equality.hpp"
#include "engine/symbolic/builder.hpp"

namespace volta::symbolic {
namespace {

class BitEqualityTest : public ::testing::Test {
protected:
  BitEqualityTest() : b(store), eq(store) { array = store.add_array_name("x"); }
  ExprId x(uint32_t i) { return store.input(array, i); }
  static FloatMods f32(FloatMode mode = FloatMode::Default) {
    return FloatMods{mode, false, kFormatF32, false};
  }

  ExprStore store;
  Builder b;
  BitEquality eq;
  uint32_t array = 0;
};

TEST_F(BitEqualityTest, TheSameNodeIsTheSameBits) {
  const ExprId s = b.add(x(0), x(1), f32());
  EXPECT_TRUE(eq.same_bits(s, s));
  EXPECT_NE(eq.class_of(s), 0u);
}

TEST_F(BitEqualityTest, F32AddAndMulCommute) {
  EXPECT_TRUE(eq.same_bits(b.add(x(0), x(1), f32()), b.add(x(1), x(0), f32())));
  EXPECT_TRUE(eq.same_bits(b.mul(x(0), x(1), f32()), b.mul(x(1), x(0), f32())));
  EXPECT_TRUE(
      eq.same_bits(b.add(x(0), x(1), f32(FloatMode::Rz)), b.add(x(1), x(0), f32(FloatMode::Rz))));
  // Inside a larger term too, and an fma's product.
  EXPECT_TRUE(eq.same_bits(b.fma(x(0), x(1), x(2), f32(FloatMode::Rn)),
                           b.fma(x(1), x(0), x(2), f32(FloatMode::Rn))));
  EXPECT_FALSE(eq.same_bits(b.fma(x(0), x(1), x(2), f32(FloatMode::Rn)),
                            b.fma(x(0), x(2), x(1), f32(FloatMode::Rn))));
  const ExprId left = b.add(b.add(x(0), x(1), f32()), x(2), f32());
  const ExprId right = b.add(x(2), b.add(x(1), x(0), f32()), f32());
  EXPECT_TRUE(eq.same_bits(left, right));
}

TEST_F(BitEqualityTest, ModifiersStayApart) {
  EXPECT_FALSE(
      eq.same_bits(b.add(x(0), x(1), f32(FloatMode::Rn)), b.add(x(1), x(0), f32(FloatMode::Rz))));
  EXPECT_FALSE(eq.same_bits(b.add(x(0), x(1), f32()), b.add(x(1), x(0), f32(FloatMode::Rn))));
}

TEST_F(BitEqualityTest, AssociativityIsNeverUsed) {
  const ExprId left = b.add(b.add(x(0), x(1), f32()), x(2), f32());
  const ExprId right = b.add(x(0), b.add(x(1), x(2), f32()), f32());
  EXPECT_FALSE(eq.same_bits(left, right));
  // A tree whose lanes associate differently: (a+b)+(c+d) against (a+c)+(b+d).
  const ExprId t1 = b.add(b.add(x(0), x(1), f32()), b.add(x(2), x(3), f32()), f32());
  const ExprId t2 = b.add(b.add(x(0), x(2), f32()), b.add(x(1), x(3), f32()), f32());
  EXPECT_FALSE(eq.same_bits(t1, t2));
}

// Every lane of an xor butterfly (offsets 16, 8, 4, 2, 1) ends with the same bits: each step is
// a+b in one lane and b+a in its partner, though every lane associates the 32 terms its own way.
TEST_F(BitEqualityTest, AnXorButterflyGivesEveryLaneTheSameBits) {
  std::vector<ExprId> v(32);
  for (uint32_t i = 0; i < 32; ++i)
    v[i] = x(i);
  for (uint32_t offset = 16; offset > 0; offset /= 2) {
    std::vector<ExprId> next(32);
    for (uint32_t i = 0; i < 32; ++i)
      next[i] = b.add(v[i], v[i ^ offset], f32());
    v = next;
  }
  for (uint32_t i = 1; i < 32; ++i) {
    EXPECT_NE(v[i], v[0]) << "lanes build their own nodes";
    EXPECT_TRUE(eq.same_bits(v[0], v[i])) << "lane " << i;
  }
  // A shuffle-down reduction is no butterfly: lane 1's sum is another term.
  const ExprId down = b.add(b.add(x(1), x(17), f32()), x(0), f32());
  EXPECT_FALSE(eq.same_bits(v[0], down));
}

// An add without a rounding mode of a product without one may be contracted into an fma by
// ptxas, on the product the lane computed itself: a*b + c and c + a*b may round differently.
TEST_F(BitEqualityTest, ContractibleProductsAreNotCommuted) {
  const ExprId p = b.mul(x(0), x(1), f32());
  EXPECT_FALSE(eq.same_bits(b.add(p, x(2), f32()), b.add(x(2), p, f32())));
  const ExprId q = b.mul(x(2), x(3), f32());
  EXPECT_FALSE(eq.same_bits(b.add(p, q, f32()), b.add(q, p, f32())));
  // A rounded product (mul.rn) is never contracted; an add with a mode never contracts.
  const ExprId r = b.mul(x(0), x(1), f32(FloatMode::Rn));
  EXPECT_TRUE(eq.same_bits(b.add(r, x(2), f32()), b.add(x(2), r, f32())));
  EXPECT_TRUE(eq.same_bits(b.add(p, x(2), f32(FloatMode::Rn)), b.add(x(2), p, f32(FloatMode::Rn))));
  // The product's own operands commute whether or not it is contracted.
  EXPECT_TRUE(eq.same_bits(b.add(p, x(2), f32()), b.add(b.mul(x(1), x(0), f32()), x(2), f32())));
}

TEST_F(BitEqualityTest, OtherFormatsAndMinMaxAreNotCommuted) {
  const FloatMods f64{FloatMode::Default, false, kFormatF64, false};
  EXPECT_FALSE(eq.same_bits(b.add(x(0), x(1), f64), b.add(x(1), x(0), f64)));
  const FloatMods f16{FloatMode::Default, false, kFormatF16, false};
  EXPECT_FALSE(eq.same_bits(b.mul(x(0), x(1), f16), b.mul(x(1), x(0), f16)));
  EXPECT_FALSE(eq.same_bits(b.max(x(0), x(1), f32()), b.max(x(1), x(0), f32())));
  EXPECT_FALSE(eq.same_bits(b.min(x(0), x(1), f32()), b.min(x(1), x(0), f32())));
  EXPECT_TRUE(eq.same_bits(b.max(x(0), x(1), f32()), b.max(x(0), x(1), f32())));
}

TEST_F(BitEqualityTest, IntegerRingAndBitOperationsCommute) {
  const ExprId i0 = b.real_to_int(x(0), RoundKind::Zero, IntType{2, true});
  const ExprId i1 = b.real_to_int(x(1), RoundKind::Zero, IntType{2, true});
  EXPECT_TRUE(eq.same_bits(b.iadd(i0, i1, 2), b.iadd(i1, i0, 2)));
  EXPECT_TRUE(eq.same_bits(b.imul(i0, i1, 2), b.imul(i1, i0, 2)));
  EXPECT_TRUE(eq.same_bits(b.intop(BitOpKind::Xor, IntType{2, false}, i0, i1),
                           b.intop(BitOpKind::Xor, IntType{2, false}, i1, i0)));
  EXPECT_FALSE(eq.same_bits(b.intop(BitOpKind::Shl, IntType{2, false}, i0, i1),
                            b.intop(BitOpKind::Shl, IntType{2, false}, i1, i0)));
  EXPECT_FALSE(eq.same_bits(b.isub(i0, i1, 2), b.isub(i1, i0, 2)));
}

TEST_F(BitEqualityTest, UnknownBitsAreEqualToNothing) {
  // An undefined value, even as one node: two threads reading it may read different garbage.
  const ExprId u = store.undef(7);
  EXPECT_FALSE(eq.same_bits(u, u));
  EXPECT_EQ(eq.class_of(u), 0u);
  EXPECT_FALSE(eq.same_bits(b.add(u, x(0), f32()), b.add(x(0), u, f32())));
  // A lifted idiom has no known bits (one node for sequences that round differently).
  const ExprId lifted = b.unary(Op::Exp, x(0), FloatMods::of(kLiftedAux));
  ASSERT_TRUE(store.taint(lifted) & kTaintIdealized);
  EXPECT_FALSE(eq.same_bits(lifted, lifted));
}

// A chain far deeper than a stack holds, shared by two terms: one walk, no recursion.
TEST_F(BitEqualityTest, DeepChainsAreWalkedOnce) {
  ExprId chain = x(0);
  for (uint32_t i = 1; i < 200000; ++i)
    chain = b.add(chain, x(i % 1000), f32());
  EXPECT_TRUE(eq.same_bits(b.add(chain, x(5), f32()), b.add(x(5), chain, f32())));
  EXPECT_FALSE(eq.same_bits(b.add(chain, x(5), f32()), b.add(chain, x(6), f32())));
}

} // namespace
} // namespace volta::symbolic
