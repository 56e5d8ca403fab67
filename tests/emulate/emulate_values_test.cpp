// Instruction semantics of the emulator on one thread: each test stores results into OUT and
// checks their exact bits.
#include <cmath>

#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emutest {
namespace {

// Runs `body` (which may use %rd1 = OUT and %rd2 = IN) on one thread; OUT has `n` words.
emulate::EmulationResult one_thread(const std::string& body, size_t n,
                                    const std::vector<uint32_t>& in = {0}) {
  const std::string text =
      kernel(".param .u64 out, .param .u64 in",
             "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd2, [in];\n" + body + "\n  ret;");
  auto c = config({1, 1, 1},
                  {"OUT:0x100000:4:" + std::to_string(n) + ":out",
                   "IN:0x200000:4:" + std::to_string(in.size()) + ":in"},
                  {"ptr:OUT", "ptr:IN"});
  emulate::Inputs inputs;
  inputs.arrays["IN"] = words(in);
  auto r = run_text(text, c, inputs);
  EXPECT_TRUE(r.result.ok()) << (r.result.error ? r.result.error->text() : r.diagnostics);
  return r.result;
}

uint32_t f32bits(float f) {
  return std::bit_cast<uint32_t>(f);
}

TEST(EmulateIntegers, WrapAroundAndSignedness) {
  auto r = one_thread(R"(
  mov.u32 %r1, 0xffffffff;
  add.u32 %r2, %r1, 2;
  st.global.u32 [%rd1], %r2;
  max.u32 %r3, %r1, 5;
  st.global.u32 [%rd1+4], %r3;
  max.s32 %r4, %r1, 5;
  st.global.u32 [%rd1+8], %r4;
  mov.u32 %r5, 0x7fffffff;
  add.sat.s32 %r6, %r5, 1;
  st.global.u32 [%rd1+12], %r6;
  mul.hi.u32 %r7, %r1, %r1;
  st.global.u32 [%rd1+16], %r7;
  mul.hi.s32 %r8, %r1, %r1;
  st.global.u32 [%rd1+20], %r8;
  shr.s32 %r9, %r1, 40;
  st.global.u32 [%rd1+24], %r9;
  shr.u32 %r10, %r1, 40;
  st.global.u32 [%rd1+28], %r10;
  div.s32 %r11, -7, 2;
  st.global.u32 [%rd1+32], %r11;
  rem.s32 %r12, -7, 2;
  st.global.u32 [%rd1+36], %r12;
  setp.lt.u32 %p1, %r1, 5;
  selp.u32 %r13, 1, 0, %p1;
  st.global.u32 [%rd1+40], %r13;
  setp.lt.s32 %p2, %r1, 5;
  selp.u32 %r14, 1, 0, %p2;
  st.global.u32 [%rd1+44], %r14;
  mul.wide.s32 %rd3, %r1, 3;
  st.global.u64 [%rd1+48], %rd3;)",
                      14);
  ASSERT_EQ(r.outputs.size(), 1u);
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), 1u);
  EXPECT_EQ(word(o, 1), 0xffffffffu);
  EXPECT_EQ(word(o, 2), 5u);
  EXPECT_EQ(word(o, 3), 0x7fffffffu);
  EXPECT_EQ(word(o, 4), 0xfffffffeu);
  EXPECT_EQ(word(o, 5), 0u); // (-1)*(-1) = 1: high word 0
  EXPECT_EQ(word(o, 6), 0xffffffffu);
  EXPECT_EQ(word(o, 7), 0u);
  EXPECT_EQ(word(o, 8), static_cast<uint32_t>(-3));
  EXPECT_EQ(word(o, 9), static_cast<uint32_t>(-1));
  EXPECT_EQ(word(o, 10), 0u);
  EXPECT_EQ(word(o, 11), 1u);
  EXPECT_EQ(word(o, 12), static_cast<uint32_t>(-3));
  EXPECT_EQ(word(o, 13), 0xffffffffu);
}

TEST(EmulateIntegers, Mul24TruncatesTo24Bits) {
  auto r = one_thread(R"(
  mov.u32 %r1, 0x01000003;
  mul24.lo.u32 %r2, %r1, 2;
  st.global.u32 [%rd1], %r2;
  mov.u32 %r3, 0x00ffffff;
  mul24.lo.s32 %r4, %r3, 2;
  st.global.u32 [%rd1+4], %r4;
  mad24.lo.u32 %r5, %r1, 2, 10;
  st.global.u32 [%rd1+8], %r5;)",
                      3);
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), 6u);
  EXPECT_EQ(word(o, 1), static_cast<uint32_t>(-2)); // 0xffffff is -1 as a 24-bit signed value
  EXPECT_EQ(word(o, 2), 16u);
}

TEST(EmulateIntegers, BitFieldsPermutesAndFunnelShifts) {
  auto r = one_thread(R"(
  mov.u32 %r1, 0x000000f0;
  bfe.s32 %r2, %r1, 4, 4;
  st.global.u32 [%rd1], %r2;
  bfe.u32 %r3, %r1, 4, 4;
  st.global.u32 [%rd1+4], %r3;
  bfi.b32 %r4, 5, 0xffffffff, 8, 4;
  st.global.u32 [%rd1+8], %r4;
  mov.u32 %r5, 0x44332211;
  mov.u32 %r6, 0x88776655;
  prmt.b32 %r7, %r5, %r6, 0x5140;
  st.global.u32 [%rd1+12], %r7;
  prmt.b32 %r8, %r5, %r6, 0x0008;
  st.global.u32 [%rd1+16], %r8;
  shf.l.wrap.b32 %r9, %r5, %r6, 36;
  st.global.u32 [%rd1+20], %r9;
  shf.r.clamp.b32 %r10, %r5, %r6, 36;
  st.global.u32 [%rd1+24], %r10;
  popc.b32 %r11, %r6;
  st.global.u32 [%rd1+28], %r11;
  clz.b32 %r12, %r1;
  st.global.u32 [%rd1+32], %r12;
  brev.b32 %r13, 1;
  st.global.u32 [%rd1+36], %r13;
  lop3.b32 %r14, %r5, %r6, 0xff00ff00, 0xe8;
  st.global.u32 [%rd1+40], %r14;)",
                      11);
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), 0xffffffffu); // bits 4..7 of 0xf0 = 0xf, sign-extended
  EXPECT_EQ(word(o, 1), 0xfu);
  EXPECT_EQ(word(o, 2), 0xfffff5ffu);
  EXPECT_EQ(word(o, 3), 0x66225511u); // bytes 0,4,1,5 of {b,a}
  EXPECT_EQ(word(o, 4), 0x11111100u); // selector 8: sign of byte 0 (0x11: positive) -> 0x00
  EXPECT_EQ(word(o, 5), 0x87766554u); // (b:a << 4) >> 32
  EXPECT_EQ(word(o, 6), 0x88776655u); // clamp to 32: b
  EXPECT_EQ(word(o, 7), 16u);
  EXPECT_EQ(word(o, 8), 24u);
  EXPECT_EQ(word(o, 9), 0x80000000u);
  // majority(a, b, c)
  const uint32_t a = 0x44332211, b = 0x88776655, c = 0xff00ff00;
  EXPECT_EQ(word(o, 10), (a & b) | (a & c) | (b & c));
}

// bfind on the emulator: the cases of Integer.BitFind (tests/exec/integer_test.cpp), where the
// engine computes them concretely and on data.
TEST(EmulateIntegers, BitFind) {
  struct Case {
    const char* form;
    const char* immediate;
    uint32_t expected;
  };
  const std::vector<Case> cases = {
      {"bfind.u32", "0", 0xffffffffu},
      {"bfind.u32", "1", 0},
      {"bfind.u32", "2147483648", 31},
      {"bfind.u32", "4294967295", 31},
      {"bfind.shiftamt.u32", "0", 0xffffffffu},
      {"bfind.shiftamt.u32", "1", 31},
      {"bfind.shiftamt.u32", "2147483648", 0},
      {"bfind.s32", "0", 0xffffffffu},
      {"bfind.s32", "-1", 0xffffffffu},
      {"bfind.s32", "-2", 0},
      {"bfind.s32", "-2147483648", 30},
      {"bfind.s32", "2147483647", 30},
      {"bfind.s32", "5", 2},
      {"bfind.shiftamt.s32", "-1", 0xffffffffu},
      {"bfind.shiftamt.s32", "2147483647", 1},
      {"bfind.shiftamt.s32", "-3", 30},
      {"bfind.u64", "0", 0xffffffffu},
      {"bfind.u64", "0x8000000000000000", 63},
      {"bfind.u64", "4294967296", 32},
      {"bfind.shiftamt.u64", "1", 63},
      {"bfind.shiftamt.u64", "0x8000000000000000", 0},
      {"bfind.s64", "-1", 0xffffffffu},
      {"bfind.s64", "-9223372036854775807", 62},
      {"bfind.s64", "-4294967297", 32},
      {"bfind.shiftamt.s64", "-256", 56},
      {"bfind.shiftamt.s64", "0", 0xffffffffu},
  };
  std::string body;
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string form = cases[i].form;
    const std::string type = form.substr(form.size() - 3);
    const std::string reg = form.ends_with("64") ? "%rd3" : "%r1";
    body += "  mov." + type + " " + reg + ", " + cases[i].immediate + ";\n  " + form + " %r2, " +
            reg + ";\n  st.global.u32 [%rd1+" + std::to_string(4 * i) + "], %r2;\n";
  }
  auto r = one_thread(body, cases.size());
  ASSERT_TRUE(r.ok());
  for (size_t i = 0; i < cases.size(); ++i)
    EXPECT_EQ(word(r.outputs[0], i), cases[i].expected)
        << cases[i].form << " " << cases[i].immediate;
}

TEST(EmulateFloats, CvtRoundingModes) {
  auto r = one_thread(R"(
  mov.f32 %f1, 0fC0200000;
  cvt.rni.s32.f32 %r1, %f1;
  st.global.u32 [%rd1], %r1;
  cvt.rzi.s32.f32 %r2, %f1;
  st.global.u32 [%rd1+4], %r2;
  cvt.rmi.s32.f32 %r3, %f1;
  st.global.u32 [%rd1+8], %r3;
  cvt.rpi.s32.f32 %r4, %f1;
  st.global.u32 [%rd1+12], %r4;
  mov.f32 %f2, 0f4F800000;
  cvt.rzi.s32.f32 %r5, %f2;
  st.global.u32 [%rd1+16], %r5;
  mov.f32 %f3, 0f3F801000;
  cvt.rn.f16.f32 %h1, %f3;
  cvt.u32.u16 %r6, %h1;
  st.global.u32 [%rd1+20], %r6;
  mov.f32 %f4, 0f3F803000;
  cvt.rn.f16.f32 %h2, %f4;
  cvt.u32.u16 %r7, %h2;
  st.global.u32 [%rd1+24], %r7;
  cvt.rni.f32.f32 %f5, %f1;
  st.global.f32 [%rd1+28], %f5;
  cvt.rn.f32.s32 %f6, 16777217;
  st.global.f32 [%rd1+32], %f6;
  cvt.rp.f32.s32 %f7, 16777217;
  st.global.f32 [%rd1+36], %f7;
  cvt.s32.s8 %r8, 200;
  st.global.u32 [%rd1+40], %r8;
  cvt.sat.u8.s32 %r9, -5;
  st.global.u32 [%rd1+44], %r9;
  cvt.rzi.u32.f32 %r10, %f1;
  st.global.u32 [%rd1+48], %r10;)",
                      13);
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), static_cast<uint32_t>(-2)); // -2.5 to nearest even
  EXPECT_EQ(word(o, 1), static_cast<uint32_t>(-2));
  EXPECT_EQ(word(o, 2), static_cast<uint32_t>(-3));
  EXPECT_EQ(word(o, 3), static_cast<uint32_t>(-2));
  EXPECT_EQ(word(o, 4), 0x7fffffffu); // 2^32 saturates
  EXPECT_EQ(word(o, 5), 0x3c00u);     // 1 + 2^-11: a tie, to even
  EXPECT_EQ(word(o, 6), 0x3c02u);     // 1 + 3 * 2^-11: a tie, to even
  EXPECT_EQ(word(o, 7), f32bits(-2.0f));
  EXPECT_EQ(word(o, 8), f32bits(16777216.0f));
  EXPECT_EQ(word(o, 9), f32bits(16777218.0f));
  EXPECT_EQ(word(o, 10), static_cast<uint32_t>(-56));
  EXPECT_EQ(word(o, 11), 0u);
  EXPECT_EQ(word(o, 12), 0u); // negative to unsigned saturates at 0
}

TEST(EmulateIntegers, CvtToNarrowSignedTypeSignExtendsIntoTheRegister) {
  // PTX ISA, cvt: a destination register wider than the destination type is extended by the
  // type's signedness. cvt.s8.s32 of 200 is -56 in the whole .b32 register; cvt.u8 stays 200.
  auto r = one_thread(R"(
  mov.u32 %r1, 200;
  cvt.s8.s32 %r2, %r1;
  st.global.u32 [%rd1], %r2;
  cvt.u8.s32 %r3, %r1;
  st.global.u32 [%rd1+4], %r3;
  mov.u32 %r4, 0x18000;
  cvt.s16.u32 %r5, %r4;
  st.global.u32 [%rd1+8], %r5;
  mov.f32 %f1, 0fC3000000;
  cvt.rzi.s8.f32 %r6, %f1;
  st.global.u32 [%rd1+12], %r6;
  cvt.sat.s8.s32 %r7, -300;
  st.global.u32 [%rd1+16], %r7;
  cvt.s8.s32 %rd3, %r1;
  st.global.u64 [%rd1+24], %rd3;)",
                      8);
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), static_cast<uint32_t>(-56));
  EXPECT_EQ(word(o, 1), 200u);
  EXPECT_EQ(word(o, 2), static_cast<uint32_t>(-32768)); // 0x8000 as s16
  EXPECT_EQ(word(o, 3), static_cast<uint32_t>(-128));   // -128.0 fits s8
  EXPECT_EQ(word(o, 4), static_cast<uint32_t>(-128));   // saturated
  EXPECT_EQ(word(o, 6), static_cast<uint32_t>(-56));    // low word of the .b64 register
  EXPECT_EQ(word(o, 7), 0xffffffffu);                   // high word: sign-extended too
}

TEST(EmulateFloats, FmaRoundsOnceMulAddTwice) {
  // a = 1 + 2^-23, b = 1 - 2^-23: a*b = 1 - 2^-46, which rounds to 1 in f32.
  auto r = one_thread(R"(
  mov.f32 %f1, 0f3F800001;
  mov.f32 %f2, 0f3F7FFFFE;
  mov.f32 %f3, 0fBF800000;
  fma.rn.f32 %f4, %f1, %f2, %f3;
  st.global.f32 [%rd1], %f4;
  mul.rn.f32 %f5, %f1, %f2;
  add.rn.f32 %f6, %f5, %f3;
  st.global.f32 [%rd1+4], %f6;
  add.rz.f32 %f7, %f1, 0f33000000;
  st.global.f32 [%rd1+8], %f7;
  add.rp.f32 %f8, %f1, 0f33000000;
  st.global.f32 [%rd1+12], %f8;
  mov.f32 %f9, 0f00000001;
  add.ftz.f32 %f10, %f9, 0f00000000;
  st.global.f32 [%rd1+16], %f10;
  add.f32 %f11, %f9, 0f00000000;
  st.global.f32 [%rd1+20], %f11;
  add.sat.f32 %f12, %f1, %f1;
  st.global.f32 [%rd1+24], %f12;)",
                      7);
  const auto& o = r.outputs[0];
  EXPECT_EQ(as_float(word(o, 0)), -std::ldexp(1.0f, -46));
  EXPECT_EQ(as_float(word(o, 1)), 0.0f);
  EXPECT_EQ(word(o, 2), 0x3F800001u); // 1 + 2^-23 + 2^-25 truncated
  EXPECT_EQ(word(o, 3), 0x3F800002u);
  EXPECT_EQ(word(o, 4), 0u); // subnormal flushed
  EXPECT_EQ(word(o, 5), 1u);
  EXPECT_EQ(as_float(word(o, 6)), 1.0f);
}

TEST(EmulateFloats, MinMaxNaNAndComparisons) {
  auto r = one_thread(R"(
  mov.f32 %f1, 0f7FC00000;
  mov.f32 %f2, 0f40000000;
  min.f32 %f3, %f1, %f2;
  st.global.f32 [%rd1], %f3;
  max.f32 %f4, %f2, %f1;
  st.global.f32 [%rd1+4], %f4;
  setp.eq.f32 %p1, %f1, %f1;
  selp.u32 %r1, 1, 0, %p1;
  st.global.u32 [%rd1+8], %r1;
  setp.neu.f32 %p2, %f1, %f1;
  selp.u32 %r2, 1, 0, %p2;
  st.global.u32 [%rd1+12], %r2;
  set.gt.u32.f32 %r3, %f2, 0f3F800000;
  st.global.u32 [%rd1+16], %r3;
  setp.lt.and.f32 %p3|%p4, %f2, 0f40400000, %p2;
  selp.u32 %r4, 1, 0, %p3;
  selp.u32 %r5, 1, 0, %p4;
  st.global.u32 [%rd1+20], %r4;
  st.global.u32 [%rd1+24], %r5;)",
                      7);
  const auto& o = r.outputs[0];
  EXPECT_EQ(as_float(word(o, 0)), 2.0f);
  EXPECT_EQ(as_float(word(o, 1)), 2.0f);
  EXPECT_EQ(word(o, 2), 0u);
  EXPECT_EQ(word(o, 3), 1u);
  EXPECT_EQ(word(o, 4), 0xffffffffu);
  EXPECT_EQ(word(o, 5), 1u);
  EXPECT_EQ(word(o, 6), 0u);
}

// A float immediate of the instruction's own width is its bits: a NaN keeps its sign and
// payload through mov (fuzzer 17:54685: the canonical NaN's low byte 0xFF was stored for
// 0fFFA00000's 0x00); arithmetic on it still gives the canonical NaN.
TEST(EmulateFloats, NaNImmediatesKeepTheirBits) {
  auto r = one_thread(R"(
  mov.f32 %f1, 0fFFA00000;
  mov.b32 %r1, %f1;
  st.global.u32 [%rd1], %r1;
  st.global.u8 [%rd1+4], %r1;
  mov.f64 %fd1, 0dFFF4000000000001;
  mov.b64 %rd3, %fd1;
  st.global.u64 [%rd1+8], %rd3;
  add.f32 %f2, %f1, 0f3F800000;
  st.global.f32 [%rd1+16], %f2;)",
                      5);
  const auto& o = r.outputs[0];
  EXPECT_EQ(word(o, 0), 0xFFA00000u);
  EXPECT_EQ(word(o, 1), 0x00u);
  EXPECT_EQ(word(o, 2), 0x00000001u);
  EXPECT_EQ(word(o, 3), 0xFFF40000u);
  EXPECT_EQ(word(o, 4), 0x7FFFFFFFu);
}

TEST(EmulateFloats, ApproximateInstructionsAreExactlyRounded) {
  auto r = one_thread(R"(
  ld.global.f32 %f1, [%rd2];
  ex2.approx.ftz.f32 %f2, %f1;
  st.global.f32 [%rd1], %f2;
  rcp.approx.ftz.f32 %f3, %f1;
  st.global.f32 [%rd1+4], %f3;
  rsqrt.approx.f32 %f4, %f1;
  st.global.f32 [%rd1+8], %f4;
  lg2.approx.f32 %f5, %f1;
  st.global.f32 [%rd1+12], %f5;
  div.rn.f32 %f6, 0f3F800000, %f1;
  st.global.f32 [%rd1+16], %f6;
  sqrt.rn.f32 %f7, %f1;
  st.global.f32 [%rd1+20], %f7;
  tanh.approx.f32 %f8, %f1;
  st.global.f32 [%rd1+24], %f8;)",
                      7, {f32bits(3.0f)});
  const auto& o = r.outputs[0];
  EXPECT_EQ(as_float(word(o, 0)), 8.0f);
  EXPECT_EQ(as_float(word(o, 1)), 1.0f / 3.0f);
  EXPECT_EQ(as_float(word(o, 2)), static_cast<float>(1.0 / std::sqrt(3.0)));
  EXPECT_EQ(as_float(word(o, 3)), static_cast<float>(std::log2(3.0)));
  EXPECT_EQ(as_float(word(o, 4)), 1.0f / 3.0f);
  EXPECT_EQ(as_float(word(o, 5)), std::sqrt(3.0f));
  EXPECT_EQ(as_float(word(o, 6)), static_cast<float>(std::tanh(3.0)));
}

TEST(EmulateErrors, UnsupportedAndUndefinedAreLocatedErrors) {
  const std::string text = kernel(".param .u64 out", R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 0;
  div.u32 %r2, 7, %r1;
  st.global.u32 [%rd1], %r2;
  ret;)");
  auto c = config({1, 1, 1}, {"OUT:0x100000:4:1:out"}, {"ptr:OUT"});
  auto r = run_text(text, c);
  ASSERT_TRUE(r.result.error);
  EXPECT_EQ(r.result.error->kind, "undefined");
  EXPECT_GT(r.result.error->ptx_line, 0u);
  EXPECT_NE(r.result.error->text().find("division by zero"), std::string::npos);

  const std::string oob = kernel(".param .u64 out", R"(
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1+4], 1;
  ret;)");
  auto r2 = run_text(oob, c);
  ASSERT_TRUE(r2.result.error);
  EXPECT_EQ(r2.result.error->kind, "out of bounds");
}

} // namespace
} // namespace volta::emutest
