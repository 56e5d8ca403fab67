// The inputs of a counterexample run (engine/emulate/counterexample_run.hpp). An integer view of
// a float element whose width is not the element's ("a1[31]:b32" of an f16 array) is the bits of
// the element's value widened (cvt.f32.f16, then moved as bits), not the element's bytes: the
// fuzzer's 12:21904 wrote the low 2 bytes of 0xC0C00000 (f32 -6) into the f16 element, leaving
// 0, so the confirmation run of a right NOT_EQUIVALENT showed equal stores.
#include <cstring>
#include <gtest/gtest.h>

#include "engine/emulate/counterexample_run.hpp"
#include "engine/emulate/elem_type.hpp"

namespace volta::emulate {
namespace {

launch::KernelConfig config_with(launch::ElemType type, uint32_t width) {
  launch::KernelConfig c;
  launch::ArraySpec a;
  a.name = "a1";
  a.base = 0x100000;
  a.elem_width = width;
  a.len = 4;
  a.kind = launch::ArrayKind::In;
  a.type = type;
  c.arrays.push_back(a);
  return c;
}

double element(const Inputs& in, launch::ElemType t, uint32_t width, uint32_t i) {
  return read_element(t, in.arrays.at("a1").data() + i * width);
}

TEST(CounterexampleInputs, TheWidenedBitsOfAnF16ElementSetItsValue) {
  const auto c = config_with(launch::ElemType::F16, 2);
  Inputs in;
  ASSERT_FALSE(counterexample_inputs(c, {{"a1[3]", "-6"}, {"a1[3]:b32", "3233808384"}}, in));
  EXPECT_EQ(element(in, ElemType::F16, 2, 3), -6.0);
  // The wide view alone sets the element too.
  ASSERT_FALSE(counterexample_inputs(c, {{"a1[1]:b32", "1069547520"}}, in)); // f32 1.5
  EXPECT_EQ(element(in, ElemType::F16, 2, 1), 1.5);
  // The element's own width is its bytes, as before.
  ASSERT_FALSE(counterexample_inputs(c, {{"a1[2]:b16", "50688"}}, in)); // 0xC600: f16 -6
  EXPECT_EQ(element(in, ElemType::F16, 2, 2), -6.0);
}

TEST(CounterexampleInputs, TheWidenedBitsOfABf16ElementAndOfAnF32Element) {
  const auto b = config_with(launch::ElemType::BF16, 2);
  Inputs in;
  ASSERT_FALSE(counterexample_inputs(b, {{"a1[0]:b32", "3233808384"}}, in));
  EXPECT_EQ(element(in, ElemType::BF16, 2, 0), -6.0);
  const auto f = config_with(launch::ElemType::F32, 4);
  ASSERT_FALSE(counterexample_inputs(f, {{"a1[0]:b64", "4609434218613702656"}}, in)); // 1.5
  EXPECT_EQ(element(in, ElemType::F32, 4, 0), 1.5);
}

TEST(CounterexampleInputs, WideBitsNoElementValueWidensToAreRefused) {
  const auto c = config_with(launch::ElemType::F16, 2);
  Inputs in;
  // 6 is an f32 subnormal, far below the smallest f16; 0x7FC00000 is a NaN; 70000 is past the
  // largest f16: no f16 widens to these bits, so the run says why instead of writing some value.
  for (const char* bits : {"6", "2143289344", "1200142336"}) {
    const auto why = counterexample_inputs(c, {{"a1[0]:b32", bits}}, in);
    ASSERT_TRUE(why) << bits;
    EXPECT_NE(why->find("a1[0]:b32"), std::string::npos) << *why;
  }
  EXPECT_TRUE(counterexample_inputs(c, {{"a1[0]:b32", "-1"}}, in));
}

} // namespace
} // namespace volta::emulate
