// Types the interpreter does not model (exec::modeled_type: b128 and the fp8 formats) are
// refused where a thread meets them, with their PTX line, never computed as some other type.
#include <gtest/gtest.h>
#include <string>
#include <string_view>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(UnmodeledTypes, Fp8ConversionIsUnsupportedWithItsLine) {
  const auto text = kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f2, 0f40000000;
  cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;
  cvt.u32.u16 %r1, %h1;
  st.global.u32 [%rd0], %r1;
  ret;)");
  const auto r = run_ptx(text, one_out(1));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  ASSERT_TRUE(r.failure()->first);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "e4m3x2"));
  EXPECT_TRUE(contains(r.failure()->message, ".e4m3x2")) << r.failure()->message;
}

TEST(UnmodeledTypes, B128RegisterIsUnsupportedWithItsLine) {
  const auto text = kernel(".param .u64 p_out", R"(
  .reg .b128 %q1;
  ld.param.u64 %rd0, [p_out];
  mov.u64 %rd1, 7;
  mov.u64 %rd2, 9;
  mov.b128 %q1, {%rd1, %rd2};
  mov.b128 {%rd3, %rd4}, %q1;
  st.global.u64 [%rd0], %rd3;
  ret;)");
  const auto r = run_ptx(text, one_out(1, {1, 1, 1}, 8));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  ASSERT_TRUE(r.failure()->first);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "mov.b128 %q1"));
  EXPECT_TRUE(contains(r.failure()->message, "b128")) << r.failure()->message;
}

} // namespace
} // namespace volta::etest
