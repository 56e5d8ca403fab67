// `.ftz` in the emulator: subnormal inputs and results are flushed to a zero of the same sign,
// for every instruction that takes the modifier, and nothing is flushed without it.
#include <cmath>

#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emutest {
namespace {

// IN holds these f32 bit patterns; %rd2 points at it, %rd1 at OUT (n words).
constexpr uint32_t kSub = 0x00000010;    // 16 * 2^-149, a positive subnormal
constexpr uint32_t kNegSub = 0x80000010; // its negative
constexpr uint32_t kOne = 0x3f800000;
constexpr uint32_t kMin = 0x00800000;      // FLT_MIN = 2^-126, the smallest normal
constexpr uint32_t kBelowOne = 0x3f7fffff; // 1 - 2^-24
constexpr uint32_t kPosZero = 0x00000000, kNegZero = 0x80000000;

emulate::EmulationResult run(const std::string& body, size_t n) {
  const std::string text =
      kernel(".param .u64 out, .param .u64 in",
             "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [in];\n"
             "  ld.global.f32 %f1, [%rd2];\n  ld.global.f32 %f2, [%rd2+4];\n"
             "  ld.global.f32 %f3, [%rd2+8];\n  ld.global.f32 %f4, [%rd2+12];\n"
             "  ld.global.f32 %f5, [%rd2+16];\n" +
                 body + "\n  ret;");
  auto c = config({1, 1, 1}, {"OUT:0x100000:4:" + std::to_string(n) + ":out", "IN:0x200000:4:5:in"},
                  {"ptr:OUT", "ptr:IN"});
  emulate::Inputs inputs;
  inputs.arrays["IN"] = words({kSub, kNegSub, kOne, kMin, kBelowOne});
  auto r = run_text(text, c, inputs);
  EXPECT_TRUE(r.result.ok()) << (r.result.error ? r.result.error->text() : r.diagnostics);
  return r.result;
}

TEST(EmulateFtz, ArithmeticFlushesInputsAndResults) {
  auto r = run(R"(
  mul.rn.ftz.f32 %f6, %f4, 0f3F000000;
  st.global.f32 [%rd1], %f6;
  mul.rn.f32 %f7, %f4, 0f3F000000;
  st.global.f32 [%rd1+4], %f7;
  mul.rn.ftz.f32 %f8, %f2, %f3;
  st.global.f32 [%rd1+8], %f8;
  add.rn.ftz.f32 %f9, %f1, %f1;
  st.global.f32 [%rd1+12], %f9;
  add.rn.f32 %f10, %f1, %f1;
  st.global.f32 [%rd1+16], %f10;
  fma.rn.ftz.f32 %f11, %f1, %f3, %f4;
  st.global.f32 [%rd1+20], %f11;
  fma.rn.f32 %f12, %f1, %f3, %f4;
  st.global.f32 [%rd1+24], %f12;
  sub.rn.ftz.f32 %f13, %f4, 0f00C00000;
  st.global.f32 [%rd1+28], %f13;
  neg.ftz.f32 %f14, %f1;
  st.global.f32 [%rd1+32], %f14;
  abs.ftz.f32 %f15, %f2;
  st.global.f32 [%rd1+36], %f15;
  neg.f32 %f16, %f1;
  st.global.f32 [%rd1+40], %f16;)",
               11);
  ASSERT_TRUE(r.ok());
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), kPosZero);    // 2^-127 is subnormal: flushed
  EXPECT_EQ(word(o, 1), 0x00400000u); // kept without .ftz
  EXPECT_EQ(word(o, 2), kNegZero);    // -sub * 1: the input flushed to -0, the sign kept
  EXPECT_EQ(word(o, 3), kPosZero);    // sub + sub: both inputs flushed
  EXPECT_EQ(word(o, 4), 0x00000020u);
  EXPECT_EQ(word(o, 5), kMin); // sub * 1 + FLT_MIN: sub flushed
  EXPECT_EQ(word(o, 6), 0x00800010u);
  EXPECT_EQ(word(o, 7), kNegZero); // FLT_MIN - 1.5 FLT_MIN = -2^-127: flushed, sign kept
  EXPECT_EQ(word(o, 8), kNegZero); // neg of a flushed +sub
  EXPECT_EQ(word(o, 9), kPosZero); // abs of a flushed -sub
  EXPECT_EQ(word(o, 10), kNegSub); // neg.f32 keeps it
}

TEST(EmulateFtz, TininessIsJudgedWithAnUnboundedExponent) {
  // FLT_MIN * (1 - 2^-24) = 2^-126 - 2^-150. Rounded in f32 with its subnormal spacing (2^-149)
  // it is a tie that goes to FLT_MIN; rounded to 24 bits with an unbounded exponent it is
  // itself (1 - 2^-24 has 24 bits), below FLT_MIN: tiny, so .ftz flushes it. An H200 flushes it
  // (scripts/hardware-check, sweep_mul_rn_ftz_tiny: the emulator kept FLT_MIN before).
  auto r = run(R"(
  mul.rn.ftz.f32 %f6, %f4, %f5;
  st.global.f32 [%rd1], %f6;
  mul.rz.ftz.f32 %f7, %f4, %f5;
  st.global.f32 [%rd1+4], %f7;
  mul.rz.f32 %f8, %f4, %f5;
  st.global.f32 [%rd1+8], %f8;
  mul.rn.f32 %f9, %f4, %f5;
  st.global.f32 [%rd1+12], %f9;)",
               4);
  ASSERT_TRUE(r.ok());
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), kPosZero);
  EXPECT_EQ(word(o, 1), kPosZero);    // truncated to the largest subnormal, then flushed
  EXPECT_EQ(word(o, 2), 0x007fffffu); // the largest subnormal
  EXPECT_EQ(word(o, 3), kMin);        // without .ftz the tie rounds to FLT_MIN
}

TEST(EmulateFtz, AProductThatRoundsToTheSmallestNormalWithItsPrecisionIsKept) {
  // FLT_MIN (1 + 2^-23) * (1 - 2^-23) = FLT_MIN (1 - 2^-46): below FLT_MIN exactly, but it
  // rounds to FLT_MIN with 24 bits, so it is not tiny and is kept (the GPU keeps all 128 such
  // products of the tiny sweep).
  auto r = run(R"(
  mov.b32 %f6, 0f00800001;
  mov.b32 %f7, 0f3F7FFFFE;
  mul.rn.ftz.f32 %f8, %f6, %f7;
  st.global.f32 [%rd1], %f8;)",
               1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(word(r.outputs[0], 0), kMin);
}

TEST(EmulateFtz, DivisionReciprocalAndSquareRoot) {
  auto r = run(R"(
  div.rn.ftz.f32 %f6, %f4, 0f40000000;
  st.global.f32 [%rd1], %f6;
  div.rn.f32 %f7, %f4, 0f40000000;
  st.global.f32 [%rd1+4], %f7;
  div.rn.ftz.f32 %f8, %f3, %f1;
  st.global.f32 [%rd1+8], %f8;
  rcp.rn.ftz.f32 %f9, %f2;
  st.global.f32 [%rd1+12], %f9;
  sqrt.rn.ftz.f32 %f10, %f2;
  st.global.f32 [%rd1+16], %f10;
  sqrt.rn.f32 %f11, %f2;
  st.global.f32 [%rd1+20], %f11;
  sqrt.approx.ftz.f32 %f12, %f1;
  st.global.f32 [%rd1+24], %f12;
  ex2.approx.ftz.f32 %f13, 0fC3020000;
  st.global.f32 [%rd1+28], %f13;
  ex2.approx.f32 %f14, 0fC3020000;
  st.global.f32 [%rd1+32], %f14;
  div.full.ftz.f32 %f15, %f4, 0f40000000;
  st.global.f32 [%rd1+36], %f15;)",
               10);
  ASSERT_TRUE(r.ok());
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), kPosZero); // FLT_MIN / 2 is subnormal
  EXPECT_EQ(word(o, 1), 0x00400000u);
  EXPECT_EQ(word(o, 2), 0x7f800000u);            // 1 / flushed sub = +inf
  EXPECT_EQ(word(o, 3), 0xff800000u);            // 1 / flushed -sub = -inf
  EXPECT_EQ(word(o, 4), kNegZero);               // sqrt(-0) = -0
  EXPECT_TRUE(std::isnan(as_float(word(o, 5)))); // sqrt of a negative subnormal
  EXPECT_EQ(word(o, 6), kPosZero);
  EXPECT_EQ(word(o, 7), kPosZero);    // 2^-130 is subnormal: flushed
  EXPECT_EQ(word(o, 8), 0x00080000u); // 2^-130 kept without .ftz
  EXPECT_EQ(word(o, 9), kPosZero);
}

TEST(EmulateFtz, ComparisonsAndMinMaxSeeFlushedInputs) {
  auto r = run(R"(
  setp.eq.ftz.f32 %p1, %f1, 0f00000000;
  selp.u32 %r1, 1, 0, %p1;
  st.global.u32 [%rd1], %r1;
  setp.eq.f32 %p2, %f1, 0f00000000;
  selp.u32 %r2, 1, 0, %p2;
  st.global.u32 [%rd1+4], %r2;
  setp.lt.ftz.f32 %p3, %f2, 0f00000000;
  selp.u32 %r3, 1, 0, %p3;
  st.global.u32 [%rd1+8], %r3;
  max.ftz.f32 %f6, %f2, 0fBF800000;
  st.global.f32 [%rd1+12], %f6;
  max.f32 %f7, %f2, 0fBF800000;
  st.global.f32 [%rd1+16], %f7;
  min.ftz.f32 %f8, %f1, %f3;
  st.global.f32 [%rd1+20], %f8;)",
               6);
  ASSERT_TRUE(r.ok());
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), 1u); // a flushed subnormal equals zero
  EXPECT_EQ(word(o, 1), 0u);
  EXPECT_EQ(word(o, 2), 0u); // -0 is not below 0
  EXPECT_EQ(word(o, 3), kNegZero);
  EXPECT_EQ(word(o, 4), kNegSub);
  EXPECT_EQ(word(o, 5), kPosZero);
}

TEST(EmulateFtz, ConversionsFlushF32SourcesAndDestinations) {
  auto r = run(R"(
  cvt.ftz.f64.f32 %fd1, %f1;
  st.global.f64 [%rd1], %fd1;
  cvt.f64.f32 %fd2, %f1;
  st.global.f64 [%rd1+8], %fd2;
  mov.f64 %fd3, 0d3730000000000000;
  cvt.rn.ftz.f32.f64 %f6, %fd3;
  st.global.f32 [%rd1+16], %f6;
  cvt.rn.f32.f64 %f7, %fd3;
  st.global.f32 [%rd1+20], %f7;
  cvt.rni.ftz.f32.f32 %f8, %f2;
  st.global.f32 [%rd1+24], %f8;)",
               7);
  ASSERT_TRUE(r.ok());
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), 0u); // +0.0 as an f64
  EXPECT_EQ(word(o, 1), 0u);
  EXPECT_EQ(word(o, 2), 0u); // 16 * 2^-149 = 2^-145 as an f64: 0x36E0000000000000
  EXPECT_EQ(word(o, 3), 0x36E00000u);
  EXPECT_EQ(word(o, 4), kPosZero);    // 2^-140 is an f32 subnormal: flushed
  EXPECT_EQ(word(o, 5), 0x00000200u); // 2^-140 = 2^9 * 2^-149
  EXPECT_EQ(word(o, 6), kNegZero);
}

TEST(EmulateFtz, AtomicAddF32FlushesAndHalfPrecisionFtzToo) {
  auto r = run(R"(
  st.global.f32 [%rd1], %f4;
  atom.global.add.f32 %f6, [%rd1], 0f80C00000;
  st.global.f32 [%rd1+4], %f6;
  mov.b16 %h1, 0x0001;
  add.rn.ftz.f16 %h2, %h1, %h1;
  cvt.u32.u16 %r1, %h2;
  st.global.u32 [%rd1+8], %r1;
  add.rn.f16 %h3, %h1, %h1;
  cvt.u32.u16 %r2, %h3;
  st.global.u32 [%rd1+12], %r2;)",
               4);
  ASSERT_TRUE(r.ok());
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), kNegZero); // FLT_MIN - 1.5 FLT_MIN = -2^-127, flushed (atom.add.f32 is ftz)
  EXPECT_EQ(word(o, 1), kMin);     // the old value
  EXPECT_EQ(word(o, 2), 0u);       // the f16 subnormals flushed
  EXPECT_EQ(word(o, 3), 2u);
}

} // namespace
} // namespace volta::emutest
