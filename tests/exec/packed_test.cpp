// Packed and narrow float conversions: cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32 with
// their operand order, nvcc's bf16 widening mov.b32 %f, {0, %h} (a value only for bf16 data),
// and the examples/packed manifest end to end (every verdict as expected, narrowings counted).
#include <gtest/gtest.h>
#include <map>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

constexpr const char* kParams = ".param .u64 p_out, .param .u64 p_in";

Launch f32_in_half_out(uint32_t out_len) {
  Launch l;
  l.arrays = {"out:0x100000:2:" + std::to_string(out_len) + ":out", "in:0x200000:4:4:in"};
  l.params = {"ptr:out", "ptr:in"};
  return l;
}

const char* kLoad = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.f32 %f1, [%rd1];
  ld.global.f32 %f2, [%rd1+4];
)";

// PTX ISA: cvt.rn.f16x2.f32 d, a, b puts a in the upper half and b in the lower one.
TEST(Packed, CvtF16x2PutsTheFirstOperandHigh) {
  for (const char* type : {"f16x2", "bf16x2"}) {
    SCOPED_TRACE(type);
    const std::string body = std::string(kLoad) + "  cvt.rn." + type +
                             ".f32 %r1, %f1, %f2;\n  st.global.b32 [%rd0], %r1;\n  ret;";
    const auto r = run_ptx(kernel(kParams, body), f32_in_half_out(2));
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.expr("out", 0), "in[1]");
    EXPECT_EQ(r.expr("out", 1), "in[0]");
  }
}

TEST(Packed, CvtPackedOfConstantsAndRelu) {
  const std::string body = std::string(kLoad) + R"(
  cvt.rn.relu.f16x2.f32 %r1, %f1, 0f40000000;
  st.global.b32 [%rd0], %r1;
  ret;)";
  const auto r = run_ptx(kernel(kParams, body), f32_in_half_out(2));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "2");
  EXPECT_NE(r.expr("out", 1).find("in[0]"), std::string::npos);
}

Launch f32_in_f32_out() {
  Launch l;
  l.arrays = {"out:0x100000:4:2:out", "in:0x200000:4:4:in"};
  l.params = {"ptr:out", "ptr:in"};
  return l;
}

// A bf16 in the high half of an f32 (low half zero) is that f32: the same real number.
TEST(Packed, Bf16WideningIsTheSameNumber) {
  const std::string body = std::string(kLoad) + R"(
  cvt.rn.bf16.f32 %h1, %f1;
  mov.b32 %f3, {0, %h1};
  st.global.f32 [%rd0], %f3;
  cvt.rn.bf16x2.f32 %r1, %f1, %f2;
  mov.b32 {%h2, %h3}, %r1;
  mov.b32 %f4, {0, %h3};
  st.global.f32 [%rd0+4], %f4;
  ret;)";
  const auto r = run_ptx(kernel(kParams, body), f32_in_f32_out());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "in[0]");
  EXPECT_EQ(r.expr("out", 1), "in[0]");
}

// The same move of an f16 (or of a bf16 in the low half) is a reinterpretation, never the value.
TEST(Packed, F16InTheHighHalfIsNotItsValue) {
  for (const char* code : {"cvt.rn.f16.f32 %h1, %f1;\n  mov.b32 %f3, {0, %h1};",
                           "cvt.rn.bf16.f32 %h1, %f1;\n  mov.b32 %f3, {%h1, 0};",
                           "cvt.rn.f16x2.f32 %r1, %f1, %f2;\n  mov.b32 {%h2, %h3}, %r1;\n"
                           "  mov.b32 %f3, {0, %h3};"}) {
    SCOPED_TRACE(code);
    const std::string body = std::string(kLoad) + "  " + code +
                             "\n  add.f32 %f5, %f3, 0f00000000;\n  st.global.f32 [%rd0], %f5;\n"
                             "  ret;";
    const auto r = run_ptx(kernel(kParams, body), f32_in_f32_out());
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_NE(r.expr("out", 0), "in[0]");
    EXPECT_NE(r.expr("out", 0), "(+ in[0] 0)");
  }
}

// A bf16x2 register read by an f16x2 instruction is read by its bits: not the bf16 values.
TEST(Packed, Bf16HalvesReadAsF16AreReinterpreted) {
  const std::string body = std::string(kLoad) + R"(
  cvt.rn.bf16x2.f32 %r1, %f1, %f2;
  add.f16x2 %r2, %r1, %r1;
  st.global.b32 [%rd0], %r2;
  cvt.rn.f16x2.f32 %r3, %f1, %f2;
  add.f16x2 %r4, %r3, %r3;
  st.global.b32 [%rd0+4], %r4;
  ret;)";
  const auto r = run_ptx(kernel(kParams, body), f32_in_half_out(4));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0).find("(+ in[1] in[1])"), std::string::npos) << r.expr("out", 0);
  EXPECT_NE(r.expr("out", 0).find("in[1]"), std::string::npos);
  EXPECT_EQ(r.expr("out", 2), "(+ in[1] in[1])");
}

TEST(PackedManifest, EveryEntryGivesItsExpectedVerdict) {
  const auto m = load_manifest(source_path("examples/packed/manifest.json"));
  ASSERT_GE(m.entries.size(), 9u);
  for (const auto& e : m.entries) {
    SCOPED_TRACE(e.name);
    exec::KernelCache cache;
    const auto r = entry::prove_equivalence_entry(e, cache, {});
    ASSERT_TRUE(e.expected.has_value());
    EXPECT_EQ(r.verdict, *e.expected) << r.detail;
  }
}

TEST(PackedManifest, PackedNarrowingsAreListedAsIdealizations) {
  const auto m = load_manifest(source_path("examples/packed/manifest.json"));
  const auto* e = find_entry(m, "(f16x2_cvt_ref, f16x2_cvt)");
  ASSERT_NE(e, nullptr);
  exec::KernelCache cache;
  const auto r = entry::prove_equivalence_entry(*e, cache, {});
  ASSERT_EQ(r.kernels.size(), 2u);
  // 32 threads, two halves each.
  EXPECT_EQ(r.kernels[1].stats.idioms.at("float narrowing cvt read as exact"), 64u);
  EXPECT_EQ(r.kernels[0].stats.idioms.at("float narrowing cvt read as exact"), 64u);
}

// nvcc's accurate tanhf (tanh.ptx) and the same sequence in inline PTX are lifted to tanh(x),
// once per thread, and listed; the ex2 inside is not listed as an exp2f of its own.
TEST(PackedManifest, AccurateTanhfIsLiftedAndCounted) {
  const auto m = load_manifest(source_path("examples/packed/manifest.json"));
  for (const char* name : {"(tanh_approx, tanh_accurate)", "(tanh_approx, tanh_inline)"}) {
    SCOPED_TRACE(name);
    const auto* e = find_entry(m, name);
    ASSERT_NE(e, nullptr);
    exec::KernelCache cache;
    const auto r = entry::prove_equivalence_entry(*e, cache, {});
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.detail;
    ASSERT_EQ(r.kernels.size(), 2u);
    EXPECT_EQ(r.kernels[0].stats.idioms,
              (std::map<std::string, uint64_t>{{"tanh.approx read as tanh", 32}}));
    EXPECT_EQ(r.kernels[1].stats.idioms.at("tanhf"), 32u);
    EXPECT_EQ(r.kernels[1].stats.idioms.count("exp2f"), 0u);
  }
}

// nvcc's accurate logf (log.ptx) and the same sequence in inline PTX are lifted to lg2(x) * ln2,
// as __logf (lg2.approx times ln 2 rounded to f32) is: one lift per thread, listed.
TEST(PackedManifest, AccurateLogfIsLiftedAndCounted) {
  const auto m = load_manifest(source_path("examples/packed/manifest.json"));
  for (const char* name : {"(log_approx, log_accurate)", "(log_approx, log_inline)"}) {
    SCOPED_TRACE(name);
    const auto* e = find_entry(m, name);
    ASSERT_NE(e, nullptr);
    exec::KernelCache cache;
    const auto r = entry::prove_equivalence_entry(*e, cache, {});
    EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.detail;
    ASSERT_EQ(r.kernels.size(), 2u);
    EXPECT_EQ(r.kernels[0].stats.idioms.at("__logf"), 32u);
    EXPECT_EQ(r.kernels[1].stats.idioms.at("logf"), 32u);
  }
  // The lifted term is lg2(x) * ln2: its domain condition x > 0 comes with lg2.
  exec::KernelCache cache;
  const auto* e = find_entry(m, "(log_approx, log_accurate)");
  auto loaded = cache.load(e->optimized.ptx_path, e->optimized.entry);
  ASSERT_TRUE(loaded.kernel);
  symbolic::ExprStore store;
  const auto run = exec::run_kernel(loaded.kernel->program, e->optimized, store);
  ASSERT_FALSE(run.failure.has_value()) << run.failure->message;
  for (const auto& [i, value] : run.outputs[0].elements)
    EXPECT_EQ(symbolic::to_sexpr(store, value), "(* (lg2 in[" + std::to_string(i) + "]) ln2)");
}

// copysign.f32 d, a, b: |b| with the sign bit of a. Over the reals a symbolic a that may be zero
// has no sign (copysign(1, -0.0) is -1, `a < 0 ? -1 : 1` is 1), so the select reads a's bits;
// an a that the sign analysis proves nonzero selects on a < 0; a constant decides.
TEST(Packed, CopysignSelectsOnTheSignBit) {
  const std::string body = std::string(kLoad) + R"(
  copysign.f32 %f3, %f1, %f2;
  st.global.f32 [%rd0], %f3;
  mov.f32 %f4, 0fC0000000;
  copysign.f32 %f5, %f4, 0f40400000;
  st.global.f32 [%rd0+4], %f5;
  fma.rn.f32 %f6, %f1, %f1, 0f3F800000;
  copysign.f32 %f7, %f6, %f2;
  st.global.f32 [%rd0+8], %f7;
  mov.f32 %f8, 0f80000000;
  copysign.f32 %f9, %f8, 0f40400000;
  st.global.f32 [%rd0+12], %f9;
  ret;)";
  Launch l = f32_in_f32_out();
  l.arrays[0] = "out:0x100000:4:4:out";
  const auto r = run_ptx(kernel(kParams, body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0),
            "(select (icmp.lt.s32 (float-bits.32 in[0]) 0) (neg (abs in[1])) (abs in[1]))");
  EXPECT_EQ(r.expr("out", 1), "-3");
  EXPECT_EQ(r.expr("out", 2).rfind("(select (cmp.lt (fma", 0), 0u) << r.expr("out", 2);
  EXPECT_EQ(r.expr("out", 3), "-3");
}

} // namespace
} // namespace volta::etest
