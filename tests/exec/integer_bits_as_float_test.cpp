// Integer bit patterns read by a float instruction are the float their bits encode, never the
// integer's value (docs/semantics.md, "Bit reinterpretation is never arithmetic"): a select of
// integer constants (selp.b32 0x3F800000, 0x40000000: f32 1 or 2) read by add.f32 was read as
// the real 1065353216 or 1073741824 (the engine's fast path took every select for a number),
// and so was such a select packed beside float data and unpacked (the halves take the packed
// value's tags): two false EQUIVALENTs, examples/soundness c41_int_*.
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

constexpr const char* kParams = ".param .u64 p_out, .param .u64 p_in";

// out: 4 f32; in: 4 elements of `in_type`, `in_width` bytes.
Launch launch(const std::string& in_type, uint32_t in_width) {
  Launch l;
  l.arrays = {"out:0x100000:4:4:out:f32",
              "in:0x200000:" + std::to_string(in_width) + ":4:in:" + in_type};
  l.params = {"ptr:out", "ptr:in"};
  return l;
}

// The printed value of out[0] after `code`.
std::string out0(const std::string& code, const Launch& l) {
  const std::string body =
      "  ld.param.u64 %rd0, [p_out];\n  ld.param.u64 %rd1, [p_in];\n" + code + "\n  ret;";
  const auto r = run_ptx(kernel(kParams, body), l);
  if (r.failure() != nullptr)
    return "failure: " + r.describe();
  return r.expr("out", 0);
}

TEST(IntegerBitsAsFloat, ASelectOfIntegerBitsIsTheFloatsOfItsBits) {
  const std::string code = "  ld.global.f32 %f1, [%rd1];\n  setp.gt.f32 %p1, %f1, 0f00000000;\n"
                           "  selp.b32 %r1, 1065353216, 1073741824, %p1;\n"
                           "  add.f32 %f2, %r1, %f1;\n  st.global.f32 [%rd0], %f2;";
  const std::string printed = out0(code, launch("f32", 4));
  EXPECT_EQ(printed.find("1065353216"), std::string::npos) << printed;
  EXPECT_NE(printed.find("select"), std::string::npos) << printed;
  EXPECT_NE(printed.find(" 1 2)"), std::string::npos) << printed;
}

TEST(IntegerBitsAsFloat, ASelectOfFloatsIsStillItsNumbers) {
  // selp.f32 of float constants, and selp.b32 of float data: the floats themselves.
  const std::string typed = "  ld.global.f32 %f1, [%rd1];\n  setp.gt.f32 %p1, %f1, 0f00000000;\n"
                            "  selp.f32 %f3, 0f3F800000, 0f40000000, %p1;\n"
                            "  add.f32 %f2, %f3, %f1;\n  st.global.f32 [%rd0], %f2;";
  const std::string printed = out0(typed, launch("f32", 4));
  EXPECT_NE(printed.find(" 1 2)"), std::string::npos) << printed;
  const std::string untyped =
      "  ld.global.f32 %f1, [%rd1];\n  setp.gt.f32 %p1, %f1, 0f00000000;\n"
      "  mul.f32 %f4, %f1, %f1;\n  mov.b32 %r4, %f4;\n  mov.b32 %r5, %f1;\n"
      "  selp.b32 %r1, %r4, %r5, %p1;\n  add.f32 %f2, %r1, %f1;\n  st.global.f32 [%rd0], %f2;";
  const std::string merged = out0(untyped, launch("f32", 4));
  EXPECT_EQ(merged.find("bits-float"), std::string::npos) << merged;
  EXPECT_NE(merged.find("select"), std::string::npos) << merged;
}

TEST(IntegerBitsAsFloat, AnIntegerHalfPackedBesideAFloatKeepsItsBits) {
  // An f16 computed from the input (float data, tagged f16) packed with a select of integer
  // bits (f16 1 or 2): the unpacked integer half is read as the f16 its bits are.
  const std::string code =
      "  ld.global.u16 %h1, [%rd1];\n  add.f16 %h2, %h1, %h1;\n  cvt.f32.f16 %f1, %h1;\n"
      "  setp.gt.f32 %p1, %f1, 0f00000000;\n  selp.b16 %h3, 15360, 16384, %p1;\n"
      "  mov.b32 %r1, {%h3, %h2};\n  mov.b32 {%h4, %h5}, %r1;\n  add.f16 %h6, %h4, %h5;\n"
      "  cvt.f32.f16 %f2, %h6;\n  st.global.f32 [%rd0], %f2;";
  const std::string printed = out0(code, launch("f16", 2));
  EXPECT_EQ(printed.find("15360"), std::string::npos) << printed;
  EXPECT_NE(printed.find(" 1 2)"), std::string::npos) << printed;
  // The integer data of a u16 array beside it: its bits read as an f16 (any IEEE value).
  const std::string data =
      "  ld.global.u16 %h1, [%rd1];\n  ld.global.u16 %h7, [%rd1+2];\n  add.f16 %h2, %h7, %h7;\n"
      "  mov.b32 %r1, {%h1, %h2};\n  mov.b32 {%h4, %h5}, %r1;\n  add.f16 %h6, %h4, %h5;\n"
      "  cvt.f32.f16 %f2, %h6;\n  st.global.f32 [%rd0], %f2;";
  const std::string bits = out0(data, launch("u16", 2));
  EXPECT_NE(bits.find("bits-float"), std::string::npos) << bits;
}

} // namespace
} // namespace volta::etest
