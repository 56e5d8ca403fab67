// Memory formats (engine/exec/exec_formats.cpp, docs/semantics.md "Packed and narrow floats"): an
// array's declared element type is the meaning of its bits, and so is the format of the
// instruction that made a 16-bit float. A bf16 read as an f16 (or the reverse) is a
// reinterpretation, through registers and memory; a bf16 array's 16 bits widened by hand
// (`(uint32_t)h << 16`) are its value, a u16 array's are not; a float array's elements moved as
// u32 are still its floats.
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

constexpr const char* kParams = ".param .u64 p_out, .param .u64 p_in";

// out: 4 f32 (or `out_type`); in: 4 16-bit elements declared `in_type` ("" for none).
Launch halves_in(const std::string& in_type, const std::string& out_type = "f32",
                 uint32_t out_width = 4) {
  Launch l;
  l.arrays = {"out:0x100000:" + std::to_string(out_width) + ":4:out:" + out_type,
              "in:0x200000:2:4:in" + (in_type.empty() ? "" : ":" + in_type)};
  l.params = {"ptr:out", "ptr:in"};
  return l;
}

std::string body(const std::string& code) {
  return "  ld.param.u64 %rd0, [p_out];\n  ld.param.u64 %rd1, [p_in];\n" + code + "\n  ret;";
}

// The printed value of out[0] after `code`.
std::string out0(const std::string& code, const Launch& l) {
  const auto r = run_ptx(kernel(kParams, body(code)), l);
  if (r.failure() != nullptr)
    return "failure: " + r.describe();
  return r.expr("out", 0);
}

bool reinterpreted(const std::string& printed) {
  return printed.find("bits-float") != std::string::npos;
}

TEST(MemoryFormats, AHalfInputIsReadInItsDeclaredFormat) {
  const std::string as_f16 = "  ld.global.u16 %h1, [%rd1];\n  cvt.f32.f16 %f1, %h1;\n"
                             "  st.global.f32 [%rd0], %f1;";
  const std::string as_bf16 = "  ld.global.u16 %h1, [%rd1];\n  cvt.f32.bf16 %f1, %h1;\n"
                              "  st.global.f32 [%rd0], %f1;";
  // In its own format: the input itself.
  EXPECT_EQ(out0(as_bf16, halves_in("bf16")), "in[0]");
  EXPECT_EQ(out0(as_f16, halves_in("f16")), "in[0]");
  EXPECT_EQ(out0(as_f16, halves_in("")), "in[0]"); // an undeclared 2-byte array holds f16
  // In the other: its bits, reinterpreted (never the same real).
  EXPECT_TRUE(reinterpreted(out0(as_f16, halves_in("bf16")))) << out0(as_f16, halves_in("bf16"));
  EXPECT_TRUE(reinterpreted(out0(as_bf16, halves_in("f16")))) << out0(as_bf16, halves_in("f16"));
  EXPECT_TRUE(reinterpreted(out0(as_bf16, halves_in("")))) << out0(as_bf16, halves_in(""));
  // Scalar and packed arithmetic of the other format alike.
  const std::string f16_add = "  ld.global.u16 %h1, [%rd1];\n  add.f16 %h2, %h1, %h1;\n"
                              "  cvt.f32.f16 %f1, %h2;\n  st.global.f32 [%rd0], %f1;";
  EXPECT_TRUE(reinterpreted(out0(f16_add, halves_in("bf16"))));
  EXPECT_FALSE(reinterpreted(out0(f16_add, halves_in("f16"))));
  const std::string f16x2_add = "  ld.global.b32 %r1, [%rd1];\n  add.f16x2 %r2, %r1, %r1;\n"
                                "  mov.b32 {%h1, %h2}, %r2;\n  cvt.f32.f16 %f1, %h1;\n"
                                "  st.global.f32 [%rd0], %f1;";
  EXPECT_TRUE(reinterpreted(out0(f16x2_add, halves_in("bf16"))));
  EXPECT_FALSE(reinterpreted(out0(f16x2_add, halves_in("f16"))));
}

Launch f32_in(const std::string& out_type = "f32", uint32_t out_width = 4) {
  Launch l;
  l.arrays = {"out:0x100000:" + std::to_string(out_width) + ":4:out:" + out_type,
              "in:0x200000:4:4:in:f32"};
  l.params = {"ptr:out", "ptr:in"};
  return l;
}

TEST(MemoryFormats, AComputedHalfKeepsItsFormatThroughRegistersAndMemory) {
  const std::string load = "  ld.global.f32 %f1, [%rd1];\n";
  // f16 data read as a bf16, bf16 data read as an f16: reinterpretations.
  EXPECT_TRUE(reinterpreted(out0(load + "  cvt.rn.f16.f32 %h1, %f1;\n  cvt.f32.bf16 %f2, %h1;\n"
                                        "  st.global.f32 [%rd0], %f2;",
                                 f32_in())));
  EXPECT_TRUE(reinterpreted(out0(load + "  cvt.rn.bf16.f32 %h1, %f1;\n  cvt.f32.f16 %f2, %h1;\n"
                                        "  st.global.f32 [%rd0], %f2;",
                                 f32_in())));
  // Its own format: the (idealized) width change.
  EXPECT_EQ(out0(load + "  cvt.rn.bf16.f32 %h1, %f1;\n  cvt.f32.bf16 %f2, %h1;\n"
                        "  st.global.f32 [%rd0], %f2;",
                 f32_in()),
            "in[0]");
  // Through shared memory the format stays with the bytes.
  const std::string through_shared = load + R"(
  cvt.rn.bf16.f32 %h1, %f1;
  st.shared.b16 [s_half], %h1;
  ld.shared.b16 %h2, [s_half];
  cvt.f32.)";
  const std::string tail = " %f2, %h2;\n  st.global.f32 [%rd0], %f2;";
  const auto shared = [&](const std::string& code) {
    const auto r =
        run_ptx(kernel(kParams, body(code), ".shared .align 2 .b16 s_half;\n"), f32_in());
    return r.failure() ? "failure: " + r.describe() : r.expr("out", 0);
  };
  EXPECT_EQ(shared(through_shared + "bf16" + tail), "in[0]");
  EXPECT_TRUE(reinterpreted(shared(through_shared + "f16" + tail)));
  // A select of a bf16 and an f16 reads both as bf16 (the f16 side reinterpreted).
  const std::string select = load + R"(
  cvt.rn.bf16.f32 %h1, %f1;
  cvt.rn.f16.f32 %h2, %f1;
  setp.gt.f32 %p1, %f1, 0f00000000;
  selp.b16 %h3, %h1, %h2, %p1;
  cvt.f32.bf16 %f2, %h3;
  st.global.f32 [%rd0], %f2;)";
  const std::string selected = out0(select, f32_in());
  EXPECT_NE(selected.find("select"), std::string::npos) << selected;
  EXPECT_TRUE(reinterpreted(selected)) << selected;
}

TEST(MemoryFormats, ABf16Array16BitsShiftedIntoAnF32AreItsValue) {
  // nvcc's code for `__uint_as_float((unsigned)a[i] << 16)`, and the same after a cvt.u32.u16.
  const std::string loaded_wide = "  ld.global.u16 %r1, [%rd1];\n  shl.b32 %r2, %r1, 16;\n"
                                  "  mov.b32 %f1, %r2;\n  add.f32 %f2, %f1, %f1;\n"
                                  "  st.global.f32 [%rd0], %f2;";
  const std::string converted = "  ld.global.u16 %h1, [%rd1];\n  cvt.u32.u16 %r1, %h1;\n"
                                "  shl.b32 %r2, %r1, 16;\n  st.global.u32 [%rd0], %r2;";
  EXPECT_EQ(out0(loaded_wide, halves_in("bf16")), "(+ in[0] in[0])");
  EXPECT_EQ(out0(converted, halves_in("bf16")), "in[0]");
  // Integer data (u16), f16 data or no declaration: bits, never a number.
  for (const char* type : {"u16", "f16", ""}) {
    SCOPED_TRACE(type);
    const std::string v = out0(loaded_wide, halves_in(type));
    EXPECT_TRUE(reinterpreted(v) || v.find("failure") != std::string::npos) << v;
    EXPECT_NE(out0(converted, halves_in(type)), "in[0]");
  }
  // A u32 load of two bf16 elements: the low one shifted up, the high one masked.
  const std::string pair = "  ld.global.u32 %r1, [%rd1];\n  shl.b32 %r2, %r1, 16;\n"
                           "  and.b32 %r3, %r1, -65536;\n  st.global.u32 [%rd0], %r2;\n"
                           "  st.global.u32 [%rd0+4], %r3;";
  {
    const auto r = run_ptx(kernel(kParams, body(pair)), halves_in("bf16"));
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.expr("out", 0), "in[0]");
    EXPECT_EQ(r.expr("out", 1), "in[1]");
    const auto f = run_ptx(kernel(kParams, body(pair)), halves_in("f16"));
    ASSERT_EQ(f.failure(), nullptr) << f.describe();
    EXPECT_NE(f.expr("out", 0), "in[0]");
    EXPECT_NE(f.expr("out", 1), "in[1]");
  }
  // Any other shift is not the widening.
  EXPECT_NE(out0("  ld.global.u16 %h1, [%rd1];\n  cvt.u32.u16 %r1, %h1;\n"
                 "  shl.b32 %r2, %r1, 15;\n  st.global.u32 [%rd0], %r2;",
                 halves_in("bf16")),
            "in[0]");
}

TEST(MemoryFormats, FloatElementsMovedAsU32AreTheirFloats) {
  const std::string copy = "  ld.global.u32 %r1, [%rd1];\n  st.global.u32 [%rd0], %r1;";
  {
    const auto r = run_ptx(kernel(kParams, body(copy)), f32_in());
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.expr("out", 0), "in[0]");
    EXPECT_EQ(r.output("out")->store_types[0], launch::ElemType::F32);
  }
  {
    // In an array declared integer the store's type decides (compared by its bits).
    const auto r = run_ptx(kernel(kParams, body(copy)), f32_in("s32"));
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.output("out")->store_types[0], launch::ElemType::U32);
    EXPECT_EQ(r.expr("out", 0), "(float-bits.32 in[0])");
  }
  {
    // A bf16 element moved by ld.u16 and st.u16 is its bf16 bits, not the f16 encoding of its
    // value (fuzzer 21:13501).
    const std::string half = "  ld.global.u16 %h1, [%rd1];\n  st.global.u16 [%rd0], %h1;";
    const auto r = run_ptx(kernel(kParams, body(half)), halves_in("bf16", "u16", 2));
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.output("out")->store_types[0], launch::ElemType::U16);
    EXPECT_EQ(r.expr("out", 0), "(float-bits.bf16 in[0])");
  }
}

// A converted element keeps its node (width changes are idealized) but not its format: only raw
// bytes (no float store wrote them) are typed by the input array's declaration.
TEST(MemoryFormats, AConvertedInputIsNotItsRawBytes) {
  Launch l = halves_in("bf16", "f16", 2);
  const std::string converted = "  ld.global.u16 %h1, [%rd1];\n  cvt.f32.bf16 %f1, %h1;\n"
                                "  cvt.rn.f16.f32 %h2, %f1;\n  st.global.b16 [%rd0], %h2;";
  const std::string raw = "  ld.global.u16 %h1, [%rd1];\n  st.global.u16 [%rd0], %h1;";
  const auto c = run_ptx(kernel(kParams, body(converted)), l);
  ASSERT_EQ(c.failure(), nullptr) << c.describe();
  EXPECT_EQ(c.expr("out", 0), "in[0]");
  EXPECT_EQ(c.output("out")->store_types[0], launch::ElemType::F16);
  const auto r = run_ptx(kernel(kParams, body(raw)), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "in[0]");
  EXPECT_EQ(r.output("out")->store_types[0], launch::ElemType::BF16);
}

TEST(MemoryFormats, ABf16StoredIntoAnF16ArrayIsABf16) {
  const std::string code = "  ld.global.f32 %f1, [%rd1];\n  cvt.rn.bf16.f32 %h1, %f1;\n"
                           "  st.global.b16 [%rd0], %h1;";
  const auto r = run_ptx(kernel(kParams, body(code)), f32_in("f16", 2));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.output("out")->store_types[0], launch::ElemType::BF16);
  const std::string f16 = "  ld.global.f32 %f1, [%rd1];\n  cvt.rn.f16.f32 %h1, %f1;\n"
                          "  st.global.b16 [%rd0], %h1;";
  const auto h = run_ptx(kernel(kParams, body(f16)), f32_in("bf16", 2));
  ASSERT_EQ(h.failure(), nullptr) << h.describe();
  EXPECT_EQ(h.output("out")->store_types[0], launch::ElemType::F16);
}

} // namespace
} // namespace volta::etest

namespace volta::etest {
namespace {

// An input array is one set of bytes: two kernels that give it different element types (bf16 in
// one, f16 in the other) would read one symbol as two numbers. Bad input, before anything runs.
TEST(MemoryFormats, AnInputArrayHasOneElementTypeInBothKernels) {
  const auto m = load_manifest(source_path("examples/soundness/manifest.json"));
  const auto* e = find_entry(m, "c20_bf16_read_as_f16");
  ASSERT_NE(e, nullptr);
  launch::ManifestEntry changed = *e;
  for (auto& a : changed.optimized.arrays) {
    if (a.name == "a")
      a.type = launch::ElemType::F16;
  }
  exec::KernelCache cache;
  const auto r = entry::prove_equivalence_entry(changed, cache, {});
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_TRUE(r.bad_input);
  EXPECT_NE(r.detail.find("input array \"a\" has bf16 in the reference and f16 in the optimized"),
            std::string::npos)
      << r.detail;
  // Undeclared on one side is an f16: a conflict with bf16, none with f16.
  for (auto& a : changed.optimized.arrays) {
    if (a.name == "a")
      a.type = launch::ElemType::Unknown;
  }
  EXPECT_EQ(entry::prove_equivalence_entry(changed, cache, {}).verdict, Verdict::Error);
  for (auto& a : changed.reference.arrays) {
    if (a.name == "a")
      a.type = launch::ElemType::F16;
  }
  EXPECT_NE(entry::prove_equivalence_entry(changed, cache, {}).verdict, Verdict::Error);
}

} // namespace
} // namespace volta::etest
