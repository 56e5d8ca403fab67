// Lifting of the exponential idioms of real nvcc output (examples/idioms, nvcc 13.0 for sm_80):
// every pair is EQUIVALENT and the lifts are counted in the kernel summaries; bit tricks that
// are not a recognized idiom (or a recognized idiom with its parts mixed up) are UNSUPPORTED,
// never a value.
#include <cctype>
#include <gtest/gtest.h>
#include <map>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

using Counts = std::map<std::string, uint64_t>;

struct IdiomEntry {
  const char* name;
  Counts reference;
  Counts optimized;
};

// One lift per thread and call site: 32 threads for the element-wise kernels, 4 threads x 32
// elements for the fused reductions, two exponentials per element for the products.
const IdiomEntry kEntries[] = {
    {"(exp_ref, exp_accurate)", {{"__symexpf", 32}}, {{"expf", 32}}},
    {"(exp_ref, exp_fast)", {{"__symexpf", 32}}, {{"__expf", 32}}},
    {"(exp_ref, exp_fastmath)", {{"__symexpf", 32}}, {{"__expf", 32}}},
    {"(exp_ref, exp2_log2e)", {{"__symexpf", 32}}, {{"__expf", 32}}},
    {"(exp2_ref, exp2_product)", {{"exp2f", 32}}, {{"exp2f", 64}}},
    {"(exp_dot_ref, exp_fused)", {{"__symexpf", 128}}, {{"expf", 128}}},
    {"(exp_sum_ref, exp_sum)", {{"__symexpf", 128}}, {{"expf", 128}}},
    {"(exp_pair_ref, exp_pair)", {{"__symexpf", 32}}, {{"expf", 64}}},
    // Fast-math rsqrtf, 1.f/x and x/y: approximate instructions read as exact, and listed.
    {"(rsqrt_div_ref, rsqrt_div)",
     {},
     {{"div.approx read as x/y", 32},
      {"rcp.approx read as 1/x", 32},
      {"rsqrt.approx read as 1/sqrt", 32}}},
};

void PrintTo(const IdiomEntry& e, std::ostream* os) {
  *os << e.name;
}

class IdiomManifest : public ::testing::TestWithParam<IdiomEntry> {
protected:
  static void SetUpTestSuite() {
    manifest_ = new launch::Manifest(load_manifest(source_path("examples/idioms/manifest.json")));
  }
  static void TearDownTestSuite() {
    delete manifest_;
    manifest_ = nullptr;
  }
  static launch::Manifest* manifest_;
};

launch::Manifest* IdiomManifest::manifest_ = nullptr;

TEST_P(IdiomManifest, EquivalentAndLiftsCounted) {
  const auto& want = GetParam();
  const auto* e = find_entry(*manifest_, want.name);
  ASSERT_NE(e, nullptr) << want.name;
  exec::KernelCache cache;
  const auto r = entry::prove_equivalence_entry(*e, cache, {});
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.detail;
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].role, "reference");
  EXPECT_EQ(r.kernels[0].stats.idioms, want.reference);
  EXPECT_EQ(r.kernels[1].role, "optimized");
  EXPECT_EQ(r.kernels[1].stats.idioms, want.optimized);
  EXPECT_EQ(r.elements.unknown, 0u);
  EXPECT_EQ(r.elements.not_equivalent, 0u);
}

std::string entry_name(const ::testing::TestParamInfo<IdiomEntry>& info) {
  std::string s;
  for (const char* p = info.param.name; *p; ++p) {
    if (std::isalnum(static_cast<unsigned char>(*p)))
      s += *p;
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(Examples, IdiomManifest, ::testing::ValuesIn(kEntries), entry_name);

TEST(IdiomManifestCoverage, EveryEntryIsListed) {
  const auto m = load_manifest(source_path("examples/idioms/manifest.json"));
  ASSERT_EQ(m.entries.size(), std::size(kEntries));
  for (const auto& e : m.entries) {
    bool listed = false;
    for (const auto& k : kEntries)
      listed |= e.name == k.name;
    EXPECT_TRUE(listed) << e.name;
  }
}

// The lifted outputs are exactly exp of the input element.
TEST(IdiomLifting, AccurateExpfOfNvccIsExpOfItsArgument) {
  const auto m = load_manifest(source_path("examples/idioms/manifest.json"));
  const auto* e = find_entry(m, "(exp_ref, exp_accurate)");
  ASSERT_NE(e, nullptr);
  exec::KernelCache cache;
  auto loaded = cache.load(e->optimized.ptx_path, e->optimized.entry);
  ASSERT_TRUE(loaded.kernel);
  symbolic::ExprStore store;
  const auto run = exec::run_kernel(loaded.kernel->program, e->optimized, store);
  ASSERT_FALSE(run.failure.has_value()) << run.failure->message;
  ASSERT_EQ(run.outputs.size(), 1u);
  ASSERT_EQ(run.outputs[0].elements.size(), 32u);
  for (const auto& [i, value] : run.outputs[0].elements) {
    EXPECT_EQ(symbolic::to_sexpr(store, value), "(exp in[" + std::to_string(i) + "])");
  }
}

// ---------------------------------------------------------------------------------------------
// nvcc's accurate expf written out, and variants of it that must not be lifted
// ---------------------------------------------------------------------------------------------

// The sequence of examples/kernels/idioms/exp_accurate.ptx for x = in[0] (%f1), with the
// argument of the polynomial part (%f20) and of the scale (%f21) and the shift amount as knobs.
std::string accurate_expf(const std::string& poly_arg, const std::string& scale_j, int shift) {
  return kernel(".param .u64 p_out, .param .u64 p_in", R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.f32 %f1, [%rd1];
  ld.global.f32 %f20, [%rd1+4];
  fma.rn.f32 %f4, %f1, 0f3BBB989D, 0f3F000000;
  cvt.sat.f32.f32 %f5, %f4;
  fma.rm.f32 %f8, %f5, 0f437C0000, 0f4B400001;
  fma.rn.f32 %f24, %f20, 0f3BBB989D, 0f3F000000;
  cvt.sat.f32.f32 %f25, %f24;
  fma.rm.f32 %f28, %f25, 0f437C0000, 0f4B400001;
  add.f32 %f9, %f8, 0fCB40007F;
  neg.f32 %f10, %f9;
  fma.rn.f32 %f12, )" + poly_arg + R"(, 0f3FB8AA3B, %f10;
  fma.rn.f32 %f14, )" + poly_arg + R"(, 0f32A57060, %f12;
  mov.b32 %r2, )" + scale_j + R"(;
  shl.b32 %r3, %r2, )" + std::to_string(shift) + R"(;
  mov.b32 %f15, %r3;
  ex2.approx.ftz.f32 %f16, %f14;
  mul.f32 %f17, %f16, %f15;
  st.global.f32 [%rd0], %f17;
  fma.rn.f32 %f18, %f16, %f15, %f20;
  st.global.f32 [%rd0+4], %f18;
  ret;)");
}

Launch expf_launch() {
  Launch l = one_out(2);
  l.arrays.push_back("in:0x200000:4:2:in");
  l.params.push_back("ptr:in");
  return l;
}

TEST(IdiomLifting, AccurateExpfInlineAndFused) {
  const auto r = run_ptx(accurate_expf("%f1", "%f8", 23), expf_launch());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "(exp in[0])");
  // The final multiply fused into the consumer: fma(p, scale, acc) = exp(x) + acc.
  EXPECT_EQ(r.expr("out", 1), "(+ (exp in[0]) in[1])");
  EXPECT_EQ(r.run->stats.idioms.at("expf"), 2u);
  const auto p = prove_ptx_pair(accurate_expf("%f1", "%f8", 23), expf_launch(),
                                accurate_expf("%f1", "%f8", 23), expf_launch());
  EXPECT_EQ(p.verdict, Verdict::Equivalent) << p.detail;
}

TEST(IdiomLifting, MixedUpExpfSequencesAreNotLifted) {
  // (a) the polynomial part uses another value than the range reduction; (b) the scale comes
  // from another reduction; (c) the scale is shifted by 22: none of them is exp of anything.
  for (const auto& text : {accurate_expf("%f20", "%f8", 23), accurate_expf("%f1", "%f28", 23),
                           accurate_expf("%f1", "%f8", 22)}) {
    const auto run = run_ptx(text, expf_launch());
    ASSERT_EQ(run.failure(), nullptr) << run.describe();
    EXPECT_EQ(run.run->stats.idioms.count("expf"), 0u);
    const auto p = prove_ptx_pair(text, expf_launch(), text, expf_launch());
    EXPECT_EQ(p.verdict, Verdict::Unsupported) << p.detail;
  }
}

std::string bit_trick(const std::string& op) {
  return kernel(".param .u64 p_out, .param .u64 p_in", R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.f32 %f1, [%rd1];
  mov.b32 %r1, %f1;
  )" + op + R"(
  mov.b32 %f2, %r2;
  st.global.f32 [%rd0], %f2;
  ret;)");
}

TEST(IdiomLifting, FloatBitTricksAreUnsupportedNeverAValue) {
  const std::string times_two = kernel(".param .u64 p_out, .param .u64 p_in", R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.f32 %f1, [%rd1];
  mul.f32 %f2, %f1, 0f40000000;
  st.global.f32 [%rd0], %f2;
  ret;)");
  const Launch l = expf_launch();
  for (const std::string op :
       {"shl.b32 %r2, %r1, 1;", "and.b32 %r2, %r1, 0x7FFFFFFF;", "xor.b32 %r2, %r1, 0x80000000;",
        "shr.u32 %r2, %r1, 23;", "or.b32 %r2, %r1, 1;"}) {
    SCOPED_TRACE(op);
    const auto trick = bit_trick(op);
    // Safe to execute: a race check passes.
    EXPECT_EQ(check_ptx(trick, l).verdict, Verdict::RaceFree);
    // Against itself it is the same term (docs/semantics.md: a reinterpretation is decided
    // only when both kernels compute the same term); against a real expression no value is
    // claimed for integer bits stored as a float: neither equal nor a counterexample.
    const auto self = prove_ptx_pair(trick, l, trick, l);
    EXPECT_EQ(self.verdict, Verdict::Equivalent) << self.detail;
    const auto other = prove_ptx_pair(times_two, l, trick, l);
    EXPECT_NE(other.verdict, Verdict::Equivalent) << other.detail;
    EXPECT_NE(other.verdict, Verdict::NotEquivalent) << other.detail;
    EXPECT_FALSE(other.counterexample.has_value());
  }
}

// Integer arithmetic on the bits of a float is not arithmetic on its value: adding 0x00800000 to
// the bits of a normal float doubles it (the exponent goes up by one). The "integer instructions
// on data are real arithmetic" rule is for integer data only: on float bits the result is
// UNSUPPORTED (an unrecognized bit-level trick), as for shl/and/xor on float bits. (A regression
// test for a false EQUIVALENT: the pair (x + 2^23 as a float add, the bit trick) was once
// proved equal although at x = 1 the values are 8388609 and 2.)
TEST(IdiomLifting, IntegerArithmeticOnFloatBitsIsNotRealArithmetic) {
  const std::string plus_2_23 = kernel(".param .u64 p_out, .param .u64 p_in", R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.f32 %f1, [%rd1];
  add.f32 %f2, %f1, 0f4B000000;
  st.global.f32 [%rd0], %f2;
  ret;)");
  const auto trick = bit_trick("add.s32 %r2, %r1, 0x00800000;");
  const Launch l = expf_launch();
  const auto r = prove_ptx_pair(plus_2_23, l, trick, l);
  EXPECT_NE(r.verdict, Verdict::Equivalent) << r.detail;
  EXPECT_NE(r.verdict, Verdict::NotEquivalent) << r.detail;
  const auto self = prove_ptx_pair(trick, l, trick, l);
  EXPECT_EQ(self.verdict, Verdict::Equivalent) << self.detail;
}

TEST(IdiomLifting, SymexpCallIsExp) {
  const std::string decls =
      ".extern .func (.param .b32 func_retval0) __symexpf(.param .b32 __symexpf_param_0);\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.f32 %f1, [%rd1];
  {
  .reg .b32 temp_param_reg;
  .param .b32 param0;
  st.param.f32 [param0], %f1;
  .param .b32 retval0;
  call.uni (retval0), __symexpf, (param0);
  ld.param.f32 %f2, [retval0];
  }
  st.global.f32 [%rd0], %f2;
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out, .param .u64 p_in", body, decls), expf_launch());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "(exp in[0])");
  EXPECT_EQ(r.run->stats.idioms.at("__symexpf"), 1u);
}

} // namespace
} // namespace volta::etest
