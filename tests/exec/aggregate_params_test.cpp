// Aggregate (by-value struct) kernel parameters: `.param .align 8 .b8 NAME[SIZE]`
// given as bytes and typed fields, read directly (`ld.param [NAME+off]`) and through the
// parameter's address (`mov.b64 %rd, NAME; ld.param [%rd+off]`, negative offsets from derived
// pointers too, as FlashAttention's entry does); a read outside the parameter space is an
// out-of-bounds error, and a scalar given for an aggregate (or the reverse) is refused.
#include <chrono>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

constexpr const char* kStructParam = ".param .align 8 .b8 k_param_0[24]";

// The struct {float* out; int n; float scale;} at offsets 0, 8, 16, given by fields only.
KernelConfig struct_config(uint64_t size = 24) {
  Launch l;
  l.arrays = {"out:0x100000000:4:4:out"};
  KernelConfig c = make_config(l);
  launch::ParamSpec p;
  p.kind = launch::ParamSpec::Kind::Struct;
  p.struct_size = size;
  p.text = "struct";
  using T = launch::StructField::Type;
  p.struct_fields.push_back({0, T::U64, "out", 0, "ptr:out", std::nullopt});
  p.struct_fields.push_back({8, T::S32, "", 7, "int:7", std::nullopt});
  p.struct_fields.push_back({16, T::F32, "", 0x3e000000, "float:0.125", std::nullopt}); // 0.125f
  c.params.push_back(p);
  return c;
}

TEST(AggregateParams, FieldsReadDirectlyAndThroughTheParameterAddress) {
  const std::string body = R"(
  mov.b64 %rd1, k_param_0;
  add.s64 %rd2, %rd1, 16;
  ld.param.u64 %rd3, [%rd2+-16];
  ld.param.u32 %r1, [%rd1+8];
  ld.param.f32 %f1, [%rd2];
  ld.param.u32 %r2, [k_param_0+8];
  st.global.u32 [%rd3], %r1;
  st.global.f32 [%rd3+4], %f1;
  st.global.u32 [%rd3+8], %r2;
  ret;)";
  const auto r = run_ptx(kernel(kStructParam, body), struct_config());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.written("out"), 3u) << r.describe();
  const auto* out = r.output("out");
  ASSERT_NE(out, nullptr);
  // Integers stored through an untyped register come back as raw bits; floats as reals.
  EXPECT_NE(r.expr("out", 0).find("7"), std::string::npos) << r.expr("out", 0);
  EXPECT_EQ(r.expr("out", 1), "1/8");
  EXPECT_NE(r.expr("out", 2).find("7"), std::string::npos) << r.expr("out", 2);
}

TEST(AggregateParams, BytesFileThenFieldsOverrideIt) {
  const std::string body = R"(
  mov.b64 %rd1, k_param_0;
  ld.param.u64 %rd3, [%rd1];
  ld.param.u32 %r1, [%rd1+8];
  ld.param.u32 %r2, [%rd1+12];
  st.global.u32 [%rd3], %r1;
  st.global.u32 [%rd3+4], %r2;
  ret;)";
  // Bytes: out's base at 0, 5 at offset 8, 9 at offset 12; a field overrides offset 8 with 7.
  std::vector<uint8_t> bytes(24, 0);
  for (int i = 0; i < 8; ++i)
    bytes[i] = static_cast<uint8_t>(uint64_t{0x100000000} >> (8 * i));
  bytes[8] = 5;
  bytes[12] = 9;
  KernelConfig c = struct_config();
  c.params[0].struct_bytes = bytes;
  c.params[0].struct_fields.erase(c.params[0].struct_fields.begin()); // pointer from bytes only
  const auto r = run_ptx(kernel(kStructParam, body), c);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_NE(r.expr("out", 0).find("7"), std::string::npos) << r.expr("out", 0);
  EXPECT_NE(r.expr("out", 1).find("9"), std::string::npos) << r.expr("out", 1);
}

TEST(AggregateParams, ReadFarOutsideTheParameterIsOutOfBounds) {
  const std::string body = R"(
  mov.b64 %rd1, k_param_0;
  ld.param.u64 %rd3, [%rd1];
  ld.param.u32 %r1, [%rd1+4096];
  st.global.u32 [%rd3], %r1;
  ret;)";
  const auto r = run_ptx(kernel(kStructParam, body), struct_config());
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds) << r.describe();
}

TEST(AggregateParams, NegativeAddressFromTheParameterIsOutOfBounds) {
  const std::string body = R"(
  mov.b64 %rd1, k_param_0;
  ld.param.u64 %rd3, [%rd1];
  ld.param.u32 %r1, [%rd1+-8];
  st.global.u32 [%rd3], %r1;
  ret;)";
  const auto r = run_ptx(kernel(kStructParam, body), struct_config());
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds) << r.describe();
}

TEST(AggregateParams, ScalarForAnAggregateIsRefused) {
  Launch l;
  l.arrays = {"out:0x100000000:4:4:out"};
  l.params = {"int:0"};
  const auto r = run_ptx(kernel(kStructParam, "ret;"), l);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Error);
  EXPECT_NE(r.failure()->message.find("params[0]: parameter 0 (k_param_0) is a 24-byte "
                                      "aggregate"),
            std::string::npos)
      << r.failure()->message;
}

TEST(AggregateParams, AggregateForAScalarIsRefused) {
  const auto r = run_ptx(kernel(".param .u64 k_param_0", "ret;"), struct_config());
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Error);
  EXPECT_NE(r.failure()->message.find("is a 64-bit scalar, but the configuration gives a struct"),
            std::string::npos)
      << r.failure()->message;
}

TEST(AggregateParams, SizeMustMatchTheDeclaration) {
  const auto r = run_ptx(kernel(kStructParam, "ret;"), struct_config(32));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_NE(r.failure()->message.find("the struct is 32 bytes, but parameter 0 (k_param_0) is "
                                      "declared with 24 bytes"),
            std::string::npos)
      << r.failure()->message;
}

TEST(AggregateParams, CommandLineStructWithBytesFile) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("volta-etest-struct-" + std::to_string(::getpid()) + ".bin");
  {
    std::ofstream out(path, std::ios::binary);
    const char bytes[24] = {0, 0, 0, 0, 1, 0, 0, 0, 42};
    out.write(bytes, sizeof bytes);
  }
  Launch l;
  l.arrays = {"out:0x100000000:4:4:out"};
  l.params = {"struct:24:bytes=" + path.string()};
  const std::string body = R"(
  mov.b64 %rd1, k_param_0;
  ld.param.u64 %rd3, [%rd1];
  ld.param.u32 %r1, [%rd1+8];
  st.global.u32 [%rd3], %r1;
  ret;)";
  const auto r = run_ptx(kernel(kStructParam, body), l);
  std::filesystem::remove(path);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_NE(r.expr("out", 0).find("42"), std::string::npos) << r.expr("out", 0);
  const auto unreadable = launch::parse_param("struct:24:bytes=/nonexistent/x.bin");
  ASSERT_FALSE(unreadable);
  EXPECT_NE(unreadable.error().find("cannot read"), std::string::npos) << unreadable.error();
  EXPECT_FALSE(launch::parse_param("struct:2x"));
  EXPECT_FALSE(launch::parse_param("struct:24:fields=1"));
}

// Fail fast: a lowering error in the optimized kernel is reported before the (slow) reference
// executes.
TEST(AggregateParams, FailFastOnARefusalInTheOptimizedKernel) {
  // A reference that runs for a long time: 1024 threads x a 100000-iteration loop (seconds).
  const std::string slow_body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, 0;
  mov.u32 %r2, 0;
LOOP:
  add.s32 %r2, %r2, 3;
  add.s32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, 100000;
  @%p1 bra LOOP;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd1, %r3, 4;
  add.s64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r2;
  ret;)";
  const std::string bad_body = R"(
  ld.param.u64 %rd0, [p_out];
  frobnicate.u32 %r1, %r2;
  ret;)";
  Launch l = one_out(1024, {1024, 1, 1});
  const auto start = std::chrono::steady_clock::now();
  const auto r = prove_ptx_pair(kernel(".param .u64 p_out", slow_body), l,
                                kernel(".param .u64 p_out", bad_body), l);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.verdict, Verdict::Error) << r.detail;
  EXPECT_NE(r.detail.find("optimized kernel:"), std::string::npos) << r.detail;
  EXPECT_LT(seconds, 1.0) << r.detail;
  EXPECT_TRUE(r.kernels.empty()); // neither kernel executed
}

} // namespace
} // namespace volta::etest
