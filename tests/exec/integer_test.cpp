// Integer semantics on tiny one-thread kernels: every case computes one value from immediates and
// stores it to out[0]; the test reads the exact integer back. Expected values follow the PTX ISA
// (widths, signedness, wrap-around, clamped shift amounts), computed by hand.
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

struct IntCase {
  std::string code;     // instructions leaving the result in `result`
  std::string result;   // the register stored
  std::string store;    // st.global type: u16 s16 u32 s32 u64 s64 b16 b32 b64
  std::string expected; // exact value of out[0]
};

uint32_t store_width(const std::string& type) {
  return static_cast<uint32_t>(std::stoi(type.substr(1))) / 8;
}

void expect_cases(const std::vector<IntCase>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.code);
    const std::string body = "  ld.param.u64 %rd0, [p_out];\n  cvta.to.global.u64 %rd0, %rd0;\n" +
                             c.code + "\n  st.global." + c.store + " [%rd0], " + c.result +
                             ";\n  ret;";
    const auto r =
        run_ptx(kernel(".param .u64 p_out", body), one_out(1, {1, 1, 1}, store_width(c.store)));
    ASSERT_TRUE(r.loaded()) << r.describe();
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.expr("out", 0), c.expected) << r.describe();
  }
}

TEST(Integer, AddSubWrapAround) {
  expect_cases({
      {"mov.u32 %r1, 0xFFFFFFFF; add.u32 %r2, %r1, 1;", "%r2", "u32", "0"},
      {"mov.s32 %r1, 0x7FFFFFFF; add.s32 %r2, %r1, 1;", "%r2", "s32", "-2147483648"},
      {"mov.u32 %r1, 0; sub.u32 %r2, %r1, 1;", "%r2", "u32", "4294967295"},
      {"mov.u32 %r1, 0; sub.s32 %r2, %r1, 1;", "%r2", "s32", "-1"},
      {"mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF; add.u64 %rd2, %rd1, 2;", "%rd2", "u64", "1"},
      {"mov.s64 %rd1, -5; sub.s64 %rd2, %rd1, 7;", "%rd2", "s64", "-12"},
      {"mov.s64 %rd1, 0x7FFFFFFFFFFFFFFF; add.s64 %rd2, %rd1, 1;", "%rd2", "s64",
       "-9223372036854775808"},
      {"mov.u16 %h1, 0xFFFF; add.u16 %h2, %h1, 3;", "%h2", "u16", "2"},
      {"mov.u16 %h1, 0x7FFF; add.s16 %h2, %h1, 1;", "%h2", "s16", "-32768"},
      // The same bits read as unsigned or signed by the store.
      {"mov.u32 %r1, 0xFFFFFFFE;", "%r1", "s32", "-2"},
      {"mov.u32 %r1, 0xFFFFFFFE;", "%r1", "u32", "4294967294"},
  });
}

TEST(Integer, MulLoHiWide) {
  expect_cases({
      {"mov.u32 %r1, 0x10000; mul.lo.u32 %r2, %r1, %r1;", "%r2", "u32", "0"},
      {"mov.s32 %r1, -3; mul.lo.s32 %r2, %r1, 7;", "%r2", "s32", "-21"},
      // (2^32-1)^2 = 2^64 - 2^33 + 1: high word 0xFFFFFFFE.
      {"mov.u32 %r1, 0xFFFFFFFF; mul.hi.u32 %r2, %r1, %r1;", "%r2", "u32", "4294967294"},
      // Signed: (-1)*(-1) = 1, high word 0.
      {"mov.u32 %r1, 0xFFFFFFFF; mul.hi.s32 %r2, %r1, %r1;", "%r2", "s32", "0"},
      // -2^31 * 2 = -2^32: high word -1.
      {"mov.u32 %r1, 0x80000000; mul.hi.s32 %r2, %r1, 2;", "%r2", "s32", "-1"},
      {"mov.u32 %r1, 0x80000000; mul.hi.u32 %r2, %r1, 2;", "%r2", "u32", "1"},
      {"mov.u32 %r1, 0xFFFFFFFF; mul.wide.u32 %rd1, %r1, %r1;", "%rd1", "u64",
       "18446744065119617025"},
      {"mov.s32 %r1, -2; mul.wide.s32 %rd1, %r1, 3;", "%rd1", "s64", "-6"},
      {"mov.u32 %r1, 0xFFFFFFFF; mul.wide.s32 %rd1, %r1, %r1;", "%rd1", "s64", "1"},
      {"mov.u16 %h1, 0xFFFF; mul.wide.u16 %r1, %h1, %h1;", "%r1", "u32", "4294836225"},
      {"mov.u16 %h1, 0xFFFF; mul.wide.s16 %r1, %h1, 5;", "%r1", "s32", "-5"},
      {"mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF; mul.hi.u64 %rd2, %rd1, 2;", "%rd2", "u64", "1"},
      {"mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF; mul.hi.s64 %rd2, %rd1, 2;", "%rd2", "s64", "-1"},
      {"mov.u64 %rd1, 0x100000000; mul.lo.u64 %rd2, %rd1, %rd1;", "%rd2", "u64", "0"},
  });
}

TEST(Integer, MadLoHiWide) {
  expect_cases({
      {"mov.s32 %r1, -3; mad.lo.s32 %r2, %r1, 4, 5;", "%r2", "s32", "-7"},
      {"mov.u32 %r1, 0xFFFFFFFF; mad.lo.u32 %r2, %r1, 2, 3;", "%r2", "u32", "1"},
      {"mov.u32 %r1, 0xFFFFFFFF; mad.hi.u32 %r2, %r1, 2, 10;", "%r2", "u32", "11"},
      {"mov.s32 %r1, -3; mov.s64 %rd1, -1; mad.wide.s32 %rd2, %r1, 4, %rd1;", "%rd2", "s64", "-13"},
      {"mov.u32 %r1, 0xFFFFFFFF; mov.u64 %rd1, 1; mad.wide.u32 %rd2, %r1, 2, %rd1;", "%rd2", "u64",
       "8589934591"},
      // mul24/mad24: the low 32 bits of the 48-bit product of the 24-bit operands.
      {"mov.u32 %r1, 0x00FFFFFF; mul24.lo.s32 %r2, %r1, 2;", "%r2", "s32", "-2"},
      {"mov.u32 %r1, 0x1000003; mul24.lo.s32 %r2, %r1, 2;", "%r2", "s32", "6"},
  });
}

// PTX ISA, mul24: ".u32: the 24-bit operands are unsigned": 0x00FFFFFF * 2 gives 0x01FFFFFE
// (sign-extending them, as the engine once did for every type, gives 0xFFFFFFFE).
TEST(Integer, Mul24UnsignedOperandsAreNotSignExtended) {
  expect_cases({
      {"mov.u32 %r1, 0x00FFFFFF; mul24.lo.u32 %r2, %r1, 2;", "%r2", "u32", "33554430"},
      {"mov.u32 %r1, 0x00800000; mad24.lo.u32 %r2, %r1, 2, 1;", "%r2", "u32", "16777217"},
  });
}

TEST(Integer, DivRemSignedAndUnsigned) {
  expect_cases({
      {"mov.u32 %r1, 7; div.u32 %r2, %r1, 2;", "%r2", "u32", "3"},
      {"mov.s32 %r1, -7; div.s32 %r2, %r1, 2;", "%r2", "s32", "-3"},
      {"mov.s32 %r1, -7; rem.s32 %r2, %r1, 2;", "%r2", "s32", "-1"},
      {"mov.s32 %r1, 7; rem.s32 %r2, %r1, -3;", "%r2", "s32", "1"},
      {"mov.s32 %r1, 7; div.s32 %r2, %r1, -3;", "%r2", "s32", "-2"},
      // The same bits as unsigned: 0xFFFFFFF9 / 2.
      {"mov.s32 %r1, -7; div.u32 %r2, %r1, 2;", "%r2", "u32", "2147483644"},
      {"mov.u32 %r1, 0xFFFFFFFF; rem.u32 %r2, %r1, 10;", "%r2", "u32", "5"},
      {"mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF; div.u64 %rd2, %rd1, 3;", "%rd2", "u64",
       "6148914691236517205"},
      {"mov.s64 %rd1, -9; rem.s64 %rd2, %rd1, 4;", "%rd2", "s64", "-1"},
      {"mov.u16 %h1, 0xFFFF; div.u16 %h2, %h1, 16;", "%h2", "u16", "4095"},
      {"mov.u16 %h1, 0xFFF0; div.s16 %h2, %h1, 4;", "%h2", "s16", "-4"},
  });
}

TEST(Integer, DivisionByZeroIsRefused) {
  const std::string body = "  ld.param.u64 %rd0, [p_out];\n  mov.u32 %r1, 7;\n  mov.u32 %r3, 0;\n  "
                           "div.u32 %r2, %r1, %r3;\n"
                           "  st.global.u32 [%rd0], %r2;\n  ret;";
  const auto text = kernel(".param .u64 p_out", body);
  const auto r = run_ptx(text, one_out(1));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  ASSERT_TRUE(r.failure()->first.has_value());
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "div.u32"));
}

TEST(Integer, ShiftsClampLargeAmounts) {
  expect_cases({
      {"mov.u32 %r1, 1; shl.b32 %r2, %r1, 31;", "%r2", "u32", "2147483648"},
      {"mov.u32 %r1, 1; shl.b32 %r2, %r1, 32;", "%r2", "u32", "0"},
      {"mov.u32 %r1, 1; mov.u32 %r3, 1000; shl.b32 %r2, %r1, %r3;", "%r2", "u32", "0"},
      {"mov.u32 %r1, 1; mov.u32 %r3, 0xFFFFFFFF; shl.b32 %r2, %r1, %r3;", "%r2", "u32", "0"},
      {"mov.u64 %rd1, 1; shl.b64 %rd2, %rd1, 63;", "%rd2", "u64", "9223372036854775808"},
      {"mov.u64 %rd1, 1; shl.b64 %rd2, %rd1, 64;", "%rd2", "u64", "0"},
      {"mov.u16 %h1, 1; shl.b16 %h2, %h1, 15;", "%h2", "u16", "32768"},
      {"mov.u16 %h1, 1; shl.b16 %h2, %h1, 16;", "%h2", "u16", "0"},
      {"mov.u32 %r1, 0x80000000; shr.u32 %r2, %r1, 31;", "%r2", "u32", "1"},
      {"mov.u32 %r1, 0x80000000; shr.u32 %r2, %r1, 40;", "%r2", "u32", "0"},
      {"mov.u32 %r1, 0x80000000; shr.b32 %r2, %r1, 4;", "%r2", "u32", "134217728"},
      // Arithmetic shifts fill with the sign bit, also past the width.
      {"mov.u32 %r1, 0x80000000; shr.s32 %r2, %r1, 31;", "%r2", "s32", "-1"},
      {"mov.u32 %r1, 0x80000000; shr.s32 %r2, %r1, 100;", "%r2", "s32", "-1"},
      {"mov.u32 %r1, 0x40000000; shr.s32 %r2, %r1, 100;", "%r2", "s32", "0"},
      {"mov.s32 %r1, -16; shr.s32 %r2, %r1, 2;", "%r2", "s32", "-4"},
      {"mov.u64 %rd1, 0x8000000000000000; shr.s64 %rd2, %rd1, 70;", "%rd2", "s64", "-1"},
      {"mov.u16 %h1, 0x8000; shr.s16 %h2, %h1, 3;", "%h2", "s16", "-4096"},
      {"mov.u16 %h1, 0x8000; shr.u16 %h2, %h1, 3;", "%h2", "u16", "4096"},
  });
}

TEST(Integer, FunnelShifts) {
  expect_cases({
      // shf.l: the high word of (b:a) << n; shf.r: the low word of (b:a) >> n.
      {"mov.u32 %r1, 0x80000000; mov.u32 %r2, 1; shf.l.clamp.b32 %r3, %r1, %r2, 1;", "%r3", "u32",
       "3"},
      {"mov.u32 %r1, 0x80000000; mov.u32 %r2, 1; shf.r.clamp.b32 %r3, %r1, %r2, 1;", "%r3", "u32",
       "3221225472"},
      {"mov.u32 %r1, 0x1; mov.u32 %r2, 0x2; shf.r.clamp.b32 %r3, %r1, %r2, 40;", "%r3", "u32", "2"},
      {"mov.u32 %r1, 0x1; mov.u32 %r2, 0x2; shf.r.wrap.b32 %r3, %r1, %r2, 33;", "%r3", "u32", "0"},
  });
}

TEST(Integer, BitwiseLogic) {
  expect_cases({
      {"mov.u32 %r1, 0xF0F0F0F0; and.b32 %r2, %r1, 0x0FF00FF0;", "%r2", "u32", "15728880"},
      {"mov.u32 %r1, 0xF0F0F0F0; or.b32 %r2, %r1, 0x0FF00FF0;", "%r2", "u32", "4293984240"},
      {"mov.u32 %r1, 0xF0F0F0F0; xor.b32 %r2, %r1, 0x0FF00FF0;", "%r2", "u32", "4278255360"},
      {"mov.u32 %r1, 0; not.b32 %r2, %r1;", "%r2", "u32", "4294967295"},
      {"mov.u16 %h1, 0x00FF; not.b16 %h2, %h1;", "%h2", "u16", "65280"},
      {"mov.u64 %rd1, 0; not.b64 %rd2, %rd1;", "%rd2", "u64", "18446744073709551615"},
      {"mov.u32 %r1, 0; cnot.b32 %r2, %r1;", "%r2", "u32", "1"},
      {"mov.u32 %r1, 5; cnot.b32 %r2, %r1;", "%r2", "u32", "0"},
      // lop3 with the truth table of a & b (0xF0 & 0xCC).
      {"mov.u32 %r1, 0xFF00FF00; mov.u32 %r2, 0x0F0F0F0F; mov.u32 %r3, 0x12345678;"
       " lop3.b32 %r4, %r1, %r2, %r3, 0xC0;",
       "%r4", "u32", "251662080"},
      // (a ^ b) | c with LUT (0xF0 ^ 0xCC) | 0xAA = 0xBE.
      {"mov.u32 %r1, 0x0000000C; mov.u32 %r2, 0x0000000A; mov.u32 %r3, 0x00000100;"
       " lop3.b32 %r4, %r1, %r2, %r3, 0xBE;",
       "%r4", "u32", "262"},
  });
}

TEST(Integer, MinMaxAbsNegSad) {
  expect_cases({
      {"mov.s32 %r1, -1; min.s32 %r2, %r1, 1;", "%r2", "s32", "-1"},
      {"mov.u32 %r1, 0xFFFFFFFF; min.u32 %r2, %r1, 1;", "%r2", "u32", "1"},
      {"mov.s32 %r1, -5; max.s32 %r2, %r1, -7;", "%r2", "s32", "-5"},
      {"mov.u32 %r1, 0x80000000; max.u32 %r2, %r1, 1;", "%r2", "u32", "2147483648"},
      {"mov.u16 %h1, 0xFFFF; max.u16 %h2, %h1, 1;", "%h2", "u16", "65535"},
      {"mov.u16 %h1, 0xFFFF; min.s16 %h2, %h1, 1;", "%h2", "s16", "-1"},
      {"mov.s64 %rd1, -3; min.s64 %rd2, %rd1, 2;", "%rd2", "s64", "-3"},
      {"mov.s32 %r1, -5; abs.s32 %r2, %r1;", "%r2", "s32", "5"},
      {"mov.u32 %r1, 0x80000000; abs.s32 %r2, %r1;", "%r2", "s32", "-2147483648"},
      {"mov.s32 %r1, 5; neg.s32 %r2, %r1;", "%r2", "s32", "-5"},
      {"mov.s64 %rd1, -9; neg.s64 %rd2, %rd1;", "%rd2", "s64", "9"},
      {"mov.s32 %r1, -3; sad.s32 %r2, %r1, 4, 100;", "%r2", "s32", "107"},
      {"mov.u32 %r1, 3; sad.u32 %r2, %r1, 10, 1;", "%r2", "u32", "8"},
      // sad.u64 compares unsigned: |0 - (2^64 - 1)| is 2^64 - 1 (the pair fuzzer, 2:2496).
      {"mov.u64 %rd1, 0; mov.u64 %rd2, 0xFFFFFFFFFFFFFFFF; sad.u64 %rd3, %rd1, %rd2, 0;", "%rd3",
       "u64", "18446744073709551615"},
      // sad.s64 of INT64_MAX and INT64_MIN: the difference wraps to 2^64 - 1.
      {"mov.u64 %rd1, 0x7FFFFFFFFFFFFFFF; mov.u64 %rd2, 0x8000000000000000;"
       " sad.s64 %rd3, %rd1, %rd2, 0;",
       "%rd3", "u64", "18446744073709551615"},
  });
}

TEST(Integer, BitFieldExtractAndInsert) {
  expect_cases({
      {"mov.u32 %r1, 0x12345678; bfe.u32 %r2, %r1, 8, 8;", "%r2", "u32", "86"},
      {"mov.u32 %r1, 0x0000F000; bfe.s32 %r2, %r1, 12, 4;", "%r2", "s32", "-1"},
      {"mov.u32 %r1, 0x0000F000; bfe.s32 %r2, %r1, 12, 5;", "%r2", "s32", "15"},
      // The field runs past bit 31: unsigned fills with zeros.
      {"mov.u32 %r1, 0x12345678; bfe.u32 %r2, %r1, 28, 8;", "%r2", "u32", "1"},
      {"mov.u32 %r1, 0x12345678; bfe.u32 %r2, %r1, 8, 0;", "%r2", "u32", "0"},
      {"mov.u32 %r1, 0x80000000; bfe.s32 %r2, %r1, 8, 0;", "%r2", "s32", "0"},
      {"mov.u64 %rd1, 0xF000000000000000; bfe.s64 %rd2, %rd1, 60, 4;", "%rd2", "s64", "-1"},
      {"mov.u64 %rd1, 0xF000000000000000; bfe.u64 %rd2, %rd1, 60, 4;", "%rd2", "u64", "15"},
      // bfi: insert the low len bits of a into b at pos.
      {"mov.u32 %r1, 0xA; mov.u32 %r2, 0xFFFFFFFF; bfi.b32 %r3, %r1, %r2, 4, 4;", "%r3", "u32",
       "4294967215"},
      {"mov.u32 %r1, 0xFF; mov.u32 %r2, 0; bfi.b32 %r3, %r1, %r2, 28, 8;", "%r3", "u32",
       "4026531840"},
      {"mov.u32 %r1, 0xFF; mov.u32 %r2, 0x5; bfi.b32 %r3, %r1, %r2, 40, 8;", "%r3", "u32", "5"},
      {"mov.u64 %rd1, 1; mov.u64 %rd2, 0; bfi.b64 %rd3, %rd1, %rd2, 63, 1;", "%rd3", "u64",
       "9223372036854775808"},
  });
}

// PTX ISA, bfe.s32: d[i] = (i < len && pos+i <= msb) ? a[pos+i] : sbit, with
// sbit = a[min(pos+len-1, msb)]. When the field runs past the msb, the bits i < len with
// pos+i > msb are sign bits too: bfe.s32 of 0x80000000 at 28 with length 8 gives 0xFFFFFFF8 (not
// 0xFFFFFF08, with those bits left 0 as the engine once did).
TEST(Integer, SignedBitFieldExtractPastTheMostSignificantBit) {
  expect_cases({
      {"mov.u32 %r1, 0x80000000; bfe.s32 %r2, %r1, 28, 8;", "%r2", "s32", "-8"},
      {"mov.u32 %r1, 0x80000000; bfe.s32 %r2, %r1, 40, 4;", "%r2", "s32", "-1"},
  });
}

TEST(Integer, BytePermute) {
  expect_cases({
      {"mov.u32 %r1, 0x44332211; mov.u32 %r2, 0x88776655; prmt.b32 %r3, %r1, %r2, 0x0123;", "%r3",
       "u32", "287454020"}, // 0x11223344
      {"mov.u32 %r1, 0x44332211; mov.u32 %r2, 0x88776655; prmt.b32 %r3, %r1, %r2, 0x7654;", "%r3",
       "u32", "2289526357"}, // 0x88776655
      // Selector 0xB: replicate the sign of byte 3 (0x44: positive) -> 0x00.
      {"mov.u32 %r1, 0x44332211; mov.u32 %r2, 0x88776655; prmt.b32 %r3, %r1, %r2, 0x000B;", "%r3",
       "u32", "286331136"}, // 0x11111100
      // Selector 0xF: the sign of byte 7 (0x88: negative) -> 0xFF.
      {"mov.u32 %r1, 0x44332211; mov.u32 %r2, 0x88776655; prmt.b32 %r3, %r1, %r2, 0x000F;", "%r3",
       "u32", "286331391"}, // 0x111111FF
  });
}

TEST(Integer, PopcClzBrev) {
  expect_cases({
      {"mov.u32 %r1, 0xF0F0; popc.b32 %r2, %r1;", "%r2", "u32", "8"},
      {"mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF; popc.b64 %r2, %rd1;", "%r2", "u32", "64"},
      {"mov.u32 %r1, 1; clz.b32 %r2, %r1;", "%r2", "u32", "31"},
      {"mov.u32 %r1, 0; clz.b32 %r2, %r1;", "%r2", "u32", "32"},
      {"mov.u64 %rd1, 1; clz.b64 %r2, %rd1;", "%r2", "u32", "63"},
      {"mov.u64 %rd1, 0; clz.b64 %r2, %rd1;", "%r2", "u32", "64"},
      {"mov.u32 %r1, 1; brev.b32 %r2, %r1;", "%r2", "u32", "2147483648"},
      {"mov.u32 %r1, 0x0000000F; brev.b32 %r2, %r1;", "%r2", "u32", "4026531840"},
      {"mov.u64 %rd1, 1; brev.b64 %rd2, %rd1;", "%rd2", "u64", "9223372036854775808"},
  });
}

// bfind (PTX ISA): the position of the most significant non-sign bit (of a negative signed
// operand, its most significant 0), 0xffffffff where there is none; .shiftamt: the left shift
// that brings it to the top. A u32 whatever the operand width. Each case runs on an immediate
// (the concrete path) and on an input element evaluated at the same value (the BitOp node);
// tests/emulate/emulate_values_test.cpp checks the emulator on the same cases.
struct BfindCase {
  std::string form;     // "bfind.u32", "bfind.shiftamt.s64", ...
  std::string operand;  // the operand's value (the input's value, and the immediate's)
  std::string expected; // the u32 result
};

const std::vector<BfindCase> kBfindCases = {
    {"bfind.u32", "0", "4294967295"},
    {"bfind.u32", "1", "0"},
    {"bfind.u32", "2147483648", "31"},
    {"bfind.u32", "4294967295", "31"},
    {"bfind.shiftamt.u32", "0", "4294967295"},
    {"bfind.shiftamt.u32", "1", "31"},
    {"bfind.shiftamt.u32", "2147483648", "0"},
    {"bfind.s32", "0", "4294967295"},
    {"bfind.s32", "-1", "4294967295"},
    {"bfind.s32", "-2", "0"},
    {"bfind.s32", "-2147483648", "30"},
    {"bfind.s32", "2147483647", "30"},
    {"bfind.s32", "5", "2"},
    {"bfind.shiftamt.s32", "-1", "4294967295"},
    {"bfind.shiftamt.s32", "2147483647", "1"},
    {"bfind.shiftamt.s32", "-3", "30"},
    {"bfind.u64", "0", "4294967295"},
    {"bfind.u64", "9223372036854775808", "63"},
    {"bfind.u64", "4294967296", "32"},
    {"bfind.shiftamt.u64", "1", "63"},
    {"bfind.shiftamt.u64", "9223372036854775808", "0"},
    {"bfind.s64", "-1", "4294967295"},
    {"bfind.s64", "-9223372036854775807", "62"},
    {"bfind.s64", "-4294967297", "32"},
    {"bfind.shiftamt.s64", "-256", "56"},
    {"bfind.shiftamt.s64", "0", "4294967295"},
};

TEST(Integer, BitFind) {
  for (const BfindCase& c : kBfindCases) {
    SCOPED_TRACE(c.form + " " + c.operand);
    const bool wide = c.form.ends_with("64");
    const std::string type = c.form.substr(c.form.size() - 3);
    const std::string reg = wide ? "%rd1" : "%r1";
    // 2^63 is written in hex: a decimal literal of PTX is at most 2^63 - 1.
    const std::string immediate =
        c.operand == "9223372036854775808" ? "0x8000000000000000" : c.operand;
    // Concrete: the operand an immediate.
    expect_cases(
        {{"mov." + type + " " + reg + ", " + immediate + "; " + c.form + " %r2, " + reg + ";",
          "%r2", "u32", c.expected}});
    // Symbolic: the operand an input element of the form's type, evaluated at the same value.
    const std::string body = "  ld.param.u64 %rd0, [p_out];\n  ld.param.u64 %rd2, [p_in];\n"
                             "  ld.global." +
                             type + " " + reg + ", [%rd2];\n  " + c.form + " %r2, " + reg +
                             ";\n  st.global.u32 [%rd0], %r2;\n  ret;";
    Launch l = one_out(1, {1, 1, 1}, 4);
    l.arrays.push_back(std::string("in:0x200000:") + (wide ? "8" : "4") + ":1:in:" + type);
    l.params.push_back("ptr:in");
    const auto r = run_ptx(kernel(".param .u64 p_out, .param .u64 p_in", body), l);
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    // The input's integer view (an integer load of input data) at the operand's bits.
    mpz_class bits(c.operand);
    if (bits < 0)
      bits += mpz_class(1) << (wide ? 64 : 32);
    const ExprId root = *r.element("out", 0);
    symbolic::Assignment point;
    for (ExprId leaf : symbolic::leaves_below(*r.store, {root}))
      point.values[symbolic::Assignment::key_of(*r.store, leaf)] = Rational(bits);
    const auto v = symbolic::Evaluator(*r.store, point).eval(root);
    ASSERT_EQ(v.kind, symbolic::EvalValue::Kind::Exact) << r.expr("out", 0);
    EXPECT_EQ(symbolic::to_string(v.exact), c.expected) << r.expr("out", 0);
  }
}

TEST(Integer, ConvertBetweenWidths) {
  expect_cases({
      {"mov.u16 %h1, 0xFFFF; cvt.s32.s16 %r1, %h1;", "%r1", "s32", "-1"},
      {"mov.u16 %h1, 0xFFFF; cvt.u32.u16 %r1, %h1;", "%r1", "u32", "65535"},
      {"mov.u16 %h1, 0x8000; cvt.s32.s16 %r1, %h1;", "%r1", "u32", "4294934528"},
      {"mov.u32 %r1, 0x12345; cvt.u16.u32 %h1, %r1;", "%h1", "u16", "9029"},
      {"mov.s32 %r1, -1; cvt.s64.s32 %rd1, %r1;", "%rd1", "s64", "-1"},
      {"mov.u32 %r1, 0xFFFFFFFF; cvt.u64.u32 %rd1, %r1;", "%rd1", "u64", "4294967295"},
      // The source type decides the extension.
      {"mov.u32 %r1, 0xFFFFFFFF; cvt.u64.s32 %rd1, %r1;", "%rd1", "u64", "18446744073709551615"},
      {"mov.u32 %r1, 0xFFFFFFFF; cvt.s64.u32 %rd1, %r1;", "%rd1", "s64", "4294967295"},
      {"mov.u64 %rd1, 0x123456789; cvt.u32.u64 %r1, %rd1;", "%r1", "u32", "591751049"},
      {"mov.u32 %r1, 0x1FF; cvt.s32.s8 %r2, %r1;", "%r2", "s32", "-1"},
      {"mov.u32 %r1, 0x17F; cvt.s32.s8 %r2, %r1;", "%r2", "s32", "127"},
      {"mov.u32 %r1, 0x1FF; cvt.u32.u8 %r2, %r1;", "%r2", "u32", "255"},
  });
}

TEST(Integer, ConvertSaturates) {
  expect_cases({
      {"mov.s32 %r1, 100000; cvt.sat.s16.s32 %h1, %r1;", "%h1", "s16", "32767"},
      {"mov.s32 %r1, -100000; cvt.sat.s16.s32 %h1, %r1;", "%h1", "s16", "-32768"},
      {"mov.s32 %r1, -5; cvt.sat.u16.s32 %h1, %r1;", "%h1", "u16", "0"},
      {"mov.s32 %r1, 70000; cvt.sat.u16.s32 %h1, %r1;", "%h1", "u16", "65535"},
      {"mov.s32 %r1, -1; cvt.sat.u32.s32 %r2, %r1;", "%r2", "u32", "0"},
      {"mov.u32 %r1, 0xFFFFFFFF; cvt.sat.s32.u32 %r2, %r1;", "%r2", "s32", "2147483647"},
      {"mov.s64 %rd1, -5000000000; cvt.sat.s32.s64 %r1, %rd1;", "%r1", "s32", "-2147483648"},
  });
}

TEST(Integer, ConvertIntegerAndFloatConstants) {
  expect_cases({
      // float -> int: each rounding mode, then saturation to the destination range.
      {"mov.f32 %f1, 0fC0200000; cvt.rzi.s32.f32 %r1, %f1;", "%r1", "s32", "-2"}, // -2.5
      {"mov.f32 %f1, 0fC0200000; cvt.rmi.s32.f32 %r1, %f1;", "%r1", "s32", "-3"},
      {"mov.f32 %f1, 0fC0200000; cvt.rpi.s32.f32 %r1, %f1;", "%r1", "s32", "-2"},
      {"mov.f32 %f1, 0f40200000; cvt.rni.s32.f32 %r1, %f1;", "%r1", "s32", "2"}, // 2.5 -> even
      {"mov.f32 %f1, 0f40600000; cvt.rni.s32.f32 %r1, %f1;", "%r1", "s32", "4"}, // 3.5 -> even
      {"mov.f32 %f1, 0f40066666; cvt.rpi.s32.f32 %r1, %f1;", "%r1", "s32", "3"}, // 2.1
      {"mov.f32 %f1, 0fBF800000; cvt.rzi.u32.f32 %r1, %f1;", "%r1", "u32", "0"}, // -1 -> 0
      {"mov.f32 %f1, 0f4F32D05E; cvt.rzi.s32.f32 %r1, %f1;", "%r1", "s32", "2147483647"}, // 3e9
      {"mov.f64 %fd1, 0dC00C000000000000; cvt.rzi.s64.f64 %rd1, %fd1;", "%rd1", "s64",
       "-3"}, // -3.5
  });
}

TEST(Integer, ConvertIntegerToFloatIsExact) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.s32 %r1, -3;
  cvt.rn.f32.s32 %f1, %r1;
  st.global.f32 [%rd0], %f1;
  mov.u32 %r2, 0xFFFFFFFF;
  cvt.rn.f32.u32 %f2, %r2;
  st.global.f32 [%rd0+4], %f2;
  mov.f32 %f3, 0f40200000;
  cvt.rni.f32.f32 %f4, %f3;
  st.global.f32 [%rd0+8], %f4;
  mov.f32 %f5, 0fC0200000;
  cvt.rmi.f32.f32 %f6, %f5;
  st.global.f32 [%rd0+12], %f6;
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body), one_out(4));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "-3");
  // The conversion rounds to f32 as the hardware does (docs/semantics.md): 2^32 - 1 has 32
  // significant bits, f32 keeps 24, and round-to-nearest gives 2^32.
  EXPECT_EQ(r.expr("out", 1), "4294967296");
  EXPECT_EQ(r.expr("out", 2), "2");
  EXPECT_EQ(r.expr("out", 3), "-3");
}

TEST(Integer, SubWordLoadsExtendBySignedness) {
  // An index array of 1-byte elements holds a[i] = i (mod 256): a[200] = 0xC8.
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_idx];
  ld.global.s8 %r1, [%rd1+200];
  st.global.s32 [%rd0], %r1;
  ld.global.u8 %r2, [%rd1+200];
  st.global.s32 [%rd0+4], %r2;
  ld.global.s16 %r3, [%rd1+200];
  st.global.s32 [%rd0+8], %r3;
  ret;)";
  Launch l = one_out(3);
  l.arrays.push_back("idx:0x200000:1:256:index");
  l.params.push_back("ptr:idx");
  const auto r = run_ptx(kernel(".param .u64 p_out, .param .u64 p_idx", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "-56");
  EXPECT_EQ(r.expr("out", 1), "200");
  // Bytes 200 and 201 (0xC9C8) as a signed 16-bit value.
  EXPECT_EQ(r.expr("out", 2), "-13880");
}

// Integer data is a bit-vector (docs/semantics.md): an input read by an integer load is the
// integer symbol in[i]:b32, sums and products wrap modulo 2^32, and every other integer
// operation is its own operator, keyed by kind and signedness.
TEST(Integer, SymbolicDataThroughIntegerInstructions) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.s32 %r1, [%rd1];
  ld.global.s32 %r2, [%rd1+4];
  add.s32 %r3, %r1, %r2;
  st.global.s32 [%rd0], %r3;
  mad.lo.s32 %r4, %r1, %r2, 5;
  st.global.s32 [%rd0+4], %r4;
  max.s32 %r5, %r1, %r2;
  st.global.s32 [%rd0+8], %r5;
  ret;)";
  Launch l = one_out(3);
  l.arrays.push_back("in:0x200000:4:2:in");
  l.params.push_back("ptr:in");
  const auto r = run_ptx(kernel(".param .u64 p_out, .param .u64 p_in", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "(iadd.32 (float-bits.32 in[0]) (float-bits.32 in[1]))");
  EXPECT_EQ(r.expr("out", 1), "(iadd.32 (imul.32 (float-bits.32 in[0]) (float-bits.32 in[1])) 5)");
  EXPECT_EQ(r.expr("out", 2), "(bitop.max.s32 (float-bits.32 in[0]) (float-bits.32 in[1]))");
}

TEST(Integer, ParametersOfEveryWidth) {
  const std::string params =
      ".param .u64 p_out, .param .u8 p_a, .param .s16 p_b, .param .u32 p_c, .param .s64 p_d";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u8 %r1, [p_a];
  ld.param.s16 %r2, [p_b];
  ld.param.u32 %r3, [p_c];
  ld.param.s64 %rd4, [p_d];
  add.s32 %r5, %r1, %r2;
  add.s32 %r5, %r5, %r3;
  cvt.s64.s32 %rd5, %r5;
  add.s64 %rd6, %rd5, %rd4;
  st.global.s64 [%rd0], %rd6;
  ret;)";
  Launch l = one_out(1, {1, 1, 1}, 8);
  l.params = {"ptr:out", "int:200", "int:-3", "int:1000", "int:-5000000000"};
  const auto r = run_ptx(kernel(params, body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), std::to_string(200 - 3 + 1000 - 5000000000LL));
}

// ExprStore::with_flags takes most taints from per-operator tables and handles the operators
// whose taint depends on the node (Fresh, FloatBits) out of line: their taints stay exact, and
// they reach the nodes above them, interned or appended as chain links.
TEST(Integer, TaintsOfFreshValuesAndFloatBits) {
  using symbolic::FreshKind;
  using symbolic::kNoExpr;
  using symbolic::Node;
  using symbolic::Op;
  symbolic::ExprStore store;
  const ExprId old =
      store.intern(Node{Op::Fresh, static_cast<uint8_t>(FreshKind::AtomicOld), 0, 1, 7, kNoExpr});
  const ExprId smid = store.intern(
      Node{Op::Fresh, static_cast<uint8_t>(FreshKind::SpecialRegister), 0, 2, 8, kNoExpr});
  const auto has = [&](ExprId id, uint16_t taint) { return (store.taint(id) & taint) != 0; };
  EXPECT_TRUE(has(old, symbolic::kTaintAtomicResult));
  EXPECT_FALSE(has(old, symbolic::kTaintSchedule | symbolic::kTaintOpaque));
  EXPECT_TRUE(has(smid, symbolic::kTaintSchedule));
  EXPECT_FALSE(has(smid, symbolic::kTaintAtomicResult | symbolic::kTaintOpaque));
  // The integer view of an input element is a plain integer symbol; of anything else, an
  // opaque reinterpretation that keeps its operand's taints.
  const ExprId in = store.input(0, 3);
  const ExprId view = store.intern(Node{Op::FloatBits, 2, 0, in, kNoExpr, kNoExpr});
  EXPECT_FALSE(has(view, symbolic::kTaintOpaque | symbolic::kTaintSchedule |
                             symbolic::kTaintAtomicResult | symbolic::kTaintUndef));
  const ExprId sum = store.intern(Node{Op::Add, 0, 0, in, smid, kNoExpr});
  const ExprId bits = store.intern(Node{Op::FloatBits, 2, 0, sum, kNoExpr, kNoExpr});
  EXPECT_TRUE(has(bits, symbolic::kTaintOpaque));
  EXPECT_TRUE(has(bits, symbolic::kTaintSchedule));
  const ExprId link = store.append(Node{Op::Fma, 0, 0, in, in, old});
  EXPECT_TRUE(has(link, symbolic::kTaintAtomicResult));
  EXPECT_TRUE(has(link, symbolic::kTransient));
}

} // namespace
} // namespace volta::etest
