// Integer bits read as a float (BitsFloat) may be a NaN, so an element that depends on them is
// proved only as the same term, by its bits, or refuted at a point (element_prover.cpp,
// same_bits). By its bits: the same bits are the same float, against bits read in the same
// format or against a float constant of that format (fuzzer 24:179639: the f32 constant 2^-133
// against the bits (65536 + k) - k). Different bits are not a refutation: +0 and -0 are one real.
#include <gtest/gtest.h>

#include "engine/prove/element_prover.hpp"
#include "engine/symbolic/builder.hpp"

namespace volta::prove {
namespace {

using symbolic::ExprId;
using symbolic::Op;

constexpr uint8_t kF16 = 1, kF32 = 2, kI32 = 2; // format and width codes

struct Dag {
  symbolic::ExprStore store;
  symbolic::Builder b{store};
  uint32_t u_array = store.add_array_name("u");
  Dag() { store.mark_integer_array(u_array); }
  // The integer element u[i] of an array declared u32.
  ExprId u(uint32_t i) {
    return store.intern(symbolic::Node{Op::FloatBits, 2, 0, store.input(u_array, i), 0, 0});
  }
  // (c + u[i]) - u[i]: the constant c on every input, as integer arithmetic the builder keeps.
  ExprId cancelled(long c, uint32_t i) {
    return b.isub(b.iadd(store.constant(c), u(i), kI32), u(i), kI32);
  }
  ElementOutcome prove(ExprId ref, ExprId opt, bool with_store = true) {
    ElementOptions options;
    ElementProver prover(store, options, with_store ? &store : nullptr);
    return prover.prove(ref, opt, "out[0]", launch::ElemType::F32, launch::ElemType::F32);
  }
};

TEST(BitsReadAsFloat, TheSameBitsInOneFormatAreOneFloat) {
  Dag d;
  const ExprId ref = d.b.bits_float(d.b.iadd(d.u(0), d.u(1), kI32), kF32);
  const ExprId opt = d.b.bits_float(d.b.iadd(d.u(1), d.u(0), kI32), kF32);
  ASSERT_NE(ref, opt);
  EXPECT_EQ(d.prove(ref, opt).kind, ElementOutcome::Kind::Equivalent);
}

TEST(BitsReadAsFloat, BitsAgainstTheFloatConstantTheyEncode) {
  Dag d;
  // 0x00010000 is the f32 subnormal 2^-133, 0x3F800000 is 1.0.
  const ExprId tiny = *d.store.float_bits(0x00010000, 32),
               one = *d.store.float_bits(0x3F800000, 32);
  EXPECT_EQ(d.prove(tiny, d.b.bits_float(d.cancelled(0x00010000, 0), kF32)).kind,
            ElementOutcome::Kind::Equivalent);
  EXPECT_EQ(d.prove(d.b.bits_float(d.cancelled(0x3F800000, 0), kF32), one).kind,
            ElementOutcome::Kind::Equivalent);
  // Needs a store to write the constant's bits in.
  EXPECT_NE(d.prove(one, d.b.bits_float(d.cancelled(0x3F800000, 0), kF32), false).kind,
            ElementOutcome::Kind::Equivalent);
}

TEST(BitsReadAsFloat, OtherBitsAreNotProvedEqual) {
  Dag d;
  const ExprId one = *d.store.float_bits(0x3F800000, 32);
  // The bits of 1065353216.0 against 1.0, whose bytes are the integer 1065353216.
  EXPECT_EQ(d.prove(one, d.b.bits_float(d.cancelled(0x4E7E0000, 0), kF32)).kind,
            ElementOutcome::Kind::NotEquivalent);
  // The same integer read in another format is another float.
  const ExprId bits = d.b.iadd(d.u(0), d.u(1), kI32);
  EXPECT_NE(d.prove(d.b.bits_float(bits, kF16), d.b.bits_float(bits, kF32)).kind,
            ElementOutcome::Kind::Equivalent);
  // Bits of another width than the format's: equal forms over Z need not be the bits it reads.
  const auto u64 = [&](uint32_t i) {
    return d.store.intern(symbolic::Node{Op::FloatBits, 3, 0, d.store.input(d.u_array, i), 0, 0});
  };
  const uint8_t kI64 = 3;
  EXPECT_NE(d.prove(d.b.bits_float(d.b.iadd(u64(0), u64(1), kI64), kF32),
                    d.b.bits_float(d.b.iadd(u64(1), u64(0), kI64), kF32))
                .kind,
            ElementOutcome::Kind::Equivalent);
  // -0 against +0: other bits, one real; not a difference either.
  const ExprId zero = d.store.constant(0L);
  const auto neg = d.prove(zero, d.b.bits_float(d.cancelled(0x80000000L, 0), kF32));
  EXPECT_NE(neg.kind, ElementOutcome::Kind::NotEquivalent) << neg.reason;
}

} // namespace
} // namespace volta::prove
