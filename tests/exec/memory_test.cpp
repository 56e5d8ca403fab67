// Memory: vector accesses, index arrays (gathers), shared (static and dynamic), local, const,
// module .global variables, generic addressing, inout/zero arrays, atomics and cp.async.
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

constexpr const char* kParams = ".param .u64 p_out, .param .u64 p_in";

// out (f32 x n) at 0x100000 and in (f32 x n) at 0x200000, `block` threads.
Launch in_out(uint32_t n, Dim3 block = {1, 1, 1}) {
  Launch l = one_out(n, block);
  l.arrays.push_back("in:0x200000:4:" + std::to_string(n) + ":in");
  l.params.push_back("ptr:in");
  return l;
}

// Exact value of an output when in[i] = i + 1.
std::string at_ramp(const Result& r, std::string_view array, uint64_t index) {
  auto e = r.element(array, index);
  if (!e)
    return "<unwritten>";
  return evaluate(r, *e,
                  [](const std::string& leaf) -> Rational {
                    const auto open = leaf.find('[');
                    return Rational(std::stol(leaf.substr(open + 1))) + 1;
                  })
      .value_or("<not exact>");
}

TEST(Memory, VectorLoadsAndStores) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];
  st.global.v4.f32 [%rd0], {%f4, %f3, %f2, %f1};
  ld.global.v2.f32 {%f5, %f6}, [%rd1+16];
  st.global.v2.f32 [%rd0+16], {%f6, %f5};
  ld.global.v2.u64 {%rd2, %rd3}, [%rd1+32];
  st.global.v2.u64 [%rd0+32], {%rd3, %rd2};
  ret;)";
  const auto r = run_ptx(kernel(kParams, body), in_out(12));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(r.expr("out", i), "in[" + std::to_string(3 - i) + "]");
  EXPECT_EQ(r.expr("out", 4), "in[5]");
  EXPECT_EQ(r.expr("out", 5), "in[4]");
  // 8-byte moves of 4-byte inputs keep the elements whole.
  EXPECT_EQ(r.expr("out", 8), "in[10]");
  EXPECT_EQ(r.expr("out", 9), "in[11]");
  EXPECT_EQ(r.expr("out", 10), "in[8]");
  EXPECT_EQ(r.expr("out", 11), "in[9]");
  EXPECT_EQ(r.written("out"), 10u);
}

TEST(Memory, BytesStoredSeparatelyReadBackAsOneWord) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  st.global.u8 [%rd0+4], 1;
  st.global.u8 [%rd0+5], 2;
  st.global.u16 [%rd0+6], 0x0403;
  ld.global.u32 %r1, [%rd0+4];
  st.global.u32 [%rd0], %r1;
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body), one_out(2));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), std::to_string(0x04030201u));
  EXPECT_EQ(r.expr("out", 1), std::to_string(0x04030201u));
}

TEST(Memory, GatherThroughAnIndexArray) {
  // out[t] = in[(3 * idx[t]) % 8], idx[i] = i (kind index: concrete, so addresses stay concrete).
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.param.u64 %rd2, [p_idx];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.u64 %rd4, %rd2, %rd3;
  ld.global.v2.u32 {%r2, %r3}, [%rd2+8];
  ld.global.u32 %r4, [%rd4];
  mul.lo.u32 %r5, %r4, 3;
  rem.u32 %r6, %r5, 8;
  mul.wide.u32 %rd5, %r6, 4;
  add.u64 %rd6, %rd1, %rd5;
  ld.global.f32 %f1, [%rd6];
  add.u64 %rd7, %rd0, %rd3;
  st.global.f32 [%rd7], %f1;
  add.u32 %r7, %r2, %r3;
  ld.param.u64 %rd8, [p_sum];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.global.u32 [%rd8], %r7;
  ret;)";
  Launch l = in_out(8, {8, 1, 1});
  l.arrays.push_back("idx:0x300000:4:8:index");
  l.arrays.push_back("sum:0x400000:4:1:out");
  l.params.push_back("ptr:idx");
  l.params.push_back("ptr:sum");
  const auto r = run_ptx(
      kernel(".param .u64 p_out, .param .u64 p_in, .param .u64 p_idx, .param .u64 p_sum", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (int t = 0; t < 8; ++t)
    EXPECT_EQ(r.expr("out", t), "in[" + std::to_string(3 * t % 8) + "]");
  EXPECT_EQ(r.expr("sum", 0), "5");
}

TEST(Memory, StaticSharedMemoryAcrossABarrier) {
  const std::string decls = ".shared .align 4 .b8 s_buf[128];\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  mov.u32 %r2, s_buf;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  st.shared.f32 [%r4], %f1;
  bar.sync 0;
  add.u32 %r5, %r1, 1;
  and.b32 %r6, %r5, 31;
  shl.b32 %r7, %r6, 2;
  add.u32 %r8, %r2, %r7;
  ld.shared.f32 %f2, [%r8];
  add.u64 %rd4, %rd0, %rd2;
  st.global.f32 [%rd4], %f2;
  ret;)";
  const auto r = run_ptx(kernel(kParams, body, decls), in_out(32, {32, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(r.expr("out", t), "in[" + std::to_string((t + 1) % 32) + "]");
  EXPECT_EQ(r.run->stats.barriers, 1u);
}

TEST(Memory, SharedVariableDeclaredInTheKernelBody) {
  const std::string body = R"(
  .shared .align 8 .f32 s_local_decl[4];
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.f32 %f1, [%rd1];
  st.shared.f32 [s_local_decl+12], %f1;
  ld.shared.f32 %f2, [s_local_decl+12];
  st.global.f32 [%rd0], %f2;
  ret;)";
  const auto r = run_ptx(kernel(kParams, body), in_out(1));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "in[0]");
}

const char* kDynamicSharedDecls =
    ".extern .shared .align 16 .b8 dyn_a[];\n.extern .shared .align 16 .b8 dyn_b[];\n"
    ".shared .align 4 .b8 s_static[64];\n";

TEST(Memory, DynamicSharedMemoryAliasesEveryExternArray) {
  // Written through dyn_a, read through dyn_b (the same dynamic buffer).
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  mov.u32 %r2, dyn_a;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  st.shared.f32 [%r4], %f1;
  mov.u32 %r9, s_static;
  add.u32 %r9, %r9, %r1;
  st.shared.u8 [%r9], 0;
  bar.sync 0;
  mov.u32 %r5, dyn_b;
  sub.u32 %r6, 124, %r3;
  add.u32 %r7, %r5, %r6;
  ld.shared.f32 %f2, [%r7];
  add.u64 %rd4, %rd0, %rd2;
  st.global.f32 [%rd4], %f2;
  ret;)";
  Launch l = in_out(32, {32, 1, 1});
  l.dyn_shared = 128;
  const auto r = run_ptx(kernel(kParams, body, kDynamicSharedDecls), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(r.expr("out", t), "in[" + std::to_string(31 - t) + "]");
}

TEST(Memory, DynamicSharedMemoryEndsAtTheLaunchSize) {
  const std::string body = R"(
  mov.u32 %r2, dyn_a;
  st.shared.u32 [%r2+124], 1;
  st.shared.u32 [%r2+128], 1;
  ret;)";
  Launch l = one_out(1);
  l.dyn_shared = 128;
  const auto text = kernel(".param .u64 p_out", body, kDynamicSharedDecls);
  const auto r = run_ptx(text, l);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds);
  EXPECT_EQ(r.failure()->space, "shared");
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "[%r2+128]"));
}

TEST(Memory, LocalMemoryIsPerThread) {
  const std::string body = R"(
  .local .align 8 .b8 __local_depot0[16];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  st.local.u32 [%SPL], %r1;
  shl.b32 %r2, %r1, 1;
  st.local.u32 [%SPL+4], %r2;
  st.u32 [%SP+8], 7;
  bar.sync 0;
  ld.local.u32 %r3, [%SPL];
  ld.u32 %r4, [%SP+4];
  ld.local.u32 %r5, [%SPL+8];
  add.u32 %r6, %r3, %r4;
  add.u32 %r6, %r6, %r5;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r6;
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body), one_out(40, {40, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (int t = 0; t < 40; ++t)
    EXPECT_EQ(r.expr("out", t), std::to_string(3 * t + 7)) << t;
}

TEST(Memory, LocalMemoryOutOfBounds) {
  const std::string body = R"(
  .local .align 8 .b8 __local_depot0[16];
  .reg .b64 %SPL;
  mov.u64 %SPL, __local_depot0;
  st.local.u32 [%SPL+12], 1;
  st.local.u32 [%SPL+16], 1;
  ret;)";
  const auto text = kernel(".param .u64 p_out", body);
  const auto r = run_ptx(text, one_out(1));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds);
  EXPECT_EQ(r.failure()->space, "local");
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "[%SPL+16]"));
}

TEST(Memory, ConstantMemoryTables) {
  const std::string decls = ".const .align 4 .b32 c_table[4] = {10, 20, 30, 40};\n"
                            ".const .align 4 .f32 c_scale[2] = {0f3F000000, 0f40400000};\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd2, c_table;
  mul.wide.u32 %rd3, %r1, 4;
  add.u64 %rd4, %rd2, %rd3;
  ld.const.u32 %r2, [%rd4];
  ld.const.f32 %f1, [c_scale];
  ld.const.f32 %f2, [c_scale+4];
  add.u64 %rd5, %rd1, %rd3;
  ld.global.f32 %f3, [%rd5];
  cvt.rn.f32.u32 %f4, %r2;
  fma.rn.f32 %f5, %f3, %f1, %f4;
  mul.f32 %f6, %f5, %f2;
  add.u64 %rd6, %rd0, %rd3;
  st.global.f32 [%rd6], %f6;
  ret;)";
  const auto r = run_ptx(kernel(kParams, body, decls), in_out(4, {4, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(r.expr("out", t),
              "(* (fma in[" + std::to_string(t) + "] 1/2 " + std::to_string(10 * (t + 1)) + ") 3)");
  }
}

TEST(Memory, ConstantMemoryIsReadOnlyAndBounded) {
  const std::string decls = ".const .align 4 .b32 c_table[4] = {10, 20, 30, 40};\n";
  {
    const auto text =
        kernel(".param .u64 p_out", "  ld.const.u32 %r1, [c_table+16];\n  ret;", decls);
    const auto r = run_ptx(text, one_out(1));
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds);
    EXPECT_EQ(r.failure()->space, "const");
  }
  {
    // A store to .const is invalid PTX (ptxas: "State space incorrect for instruction 'st'"):
    // refused when the kernel is read, with its location, before anything runs.
    const auto text = kernel(".param .u64 p_out", "  st.const.u32 [c_table], 1;\n  ret;", decls);
    const auto r = run_ptx(text, one_out(1));
    EXPECT_FALSE(r.run.has_value());
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].message, "state space '.const' is not allowed for 'st'");
    EXPECT_EQ(r.diagnostics[0].where.line, line_of(text, "st.const"));
  }
}

TEST(Memory, ModuleGlobalVariablesAndLaunchOverrides) {
  const std::string decls = ".global .align 4 .u32 g_scale = 7;\n.global .align 8 .u64 g_wide;\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.global.u32 %r1, [g_scale];
  ld.global.u64 %rd1, [g_wide];
  cvt.u32.u64 %r2, %rd1;
  add.u32 %r3, %r1, %r2;
  st.global.u32 [%rd0], %r3;
  ret;)";
  const auto text = kernel(".param .u64 p_out", body, decls);
  {
    const auto r = run_ptx(text, one_out(1));
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.expr("out", 0), "7");
  }
  {
    Launch l = one_out(1);
    l.globals = {{"g_scale", 11}, {"g_wide", 100}};
    const auto r = run_ptx(text, l);
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.expr("out", 0), "111");
  }
}

TEST(Memory, GenericAddressesOfSharedMemory) {
  const std::string decls = ".shared .align 4 .b8 s_buf[16];\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.f32 %f1, [%rd1];
  mov.u64 %rd2, s_buf;
  cvta.shared.u64 %rd3, %rd2;
  st.f32 [%rd3+8], %f1;
  ld.shared.f32 %f2, [s_buf+8];
  cvta.to.shared.u64 %rd4, %rd3;
  ld.shared.f32 %f3, [%rd4+8];
  add.f32 %f4, %f2, %f3;
  st.global.f32 [%rd0], %f4;
  ret;)";
  const auto r = run_ptx(kernel(kParams, body, decls), in_out(1));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "(+ in[0] in[0])");
}

TEST(Memory, InOutArraysAreUpdatedInPlace) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_io];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  ld.global.f32 %f1, [%rd2];
  mul.f32 %f2, %f1, 0f40000000;
  st.global.f32 [%rd2], %f2;
  ret;)";
  Launch l;
  l.block = {4, 1, 1};
  l.arrays = {"io:0x100000:4:8:inout"};
  l.params = {"ptr:io"};
  const auto r = run_ptx(kernel(".param .u64 p_io", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  // Only the written elements are outputs.
  EXPECT_EQ(r.written("io"), 4u);
  for (int t = 0; t < 4; ++t)
    EXPECT_EQ(r.expr("io", t), "(* io[" + std::to_string(t) + "] 2)");
}

TEST(Memory, WritingAnInputArrayIsRefused) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  st.global.f32 [%rd1], 0f00000000;
  ret;)";
  const auto text = kernel(kParams, body);
  const auto r = run_ptx(text, in_out(1));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  EXPECT_NE(r.failure()->message.find("in[0]"), std::string::npos) << r.failure()->message;
}

TEST(Memory, ZeroArraysStartAtZero) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.global.f32 %f1, [%rd0+4];
  add.f32 %f2, %f1, 0f3F800000;
  st.global.f32 [%rd0], %f2;
  ret;)";
  Launch l;
  l.arrays = {"out:0x100000:4:2:zero"};
  l.params = {"ptr:out"};
  const auto r = run_ptx(kernel(".param .u64 p_out", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "1");
  EXPECT_EQ(r.written("out"), 1u);
}

// ---------------------------------------------------------------------------------------------
// Atomics
// ---------------------------------------------------------------------------------------------

const char* kAtomicGlobalBody = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd2, %r4, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  atom.global.add.f32 %f2, [%rd0], %f1;
  ld.param.u64 %rd4, [p_count];
  red.global.add.u32 [%rd4], %r4;
  ret;)";

Launch atomic_launch(uint32_t ctas, bool all) {
  Launch l;
  l.block = {64, 1, 1};
  l.grid = {ctas, 1, 1};
  l.all_ctas = all;
  l.arrays = {"out:0x100000:4:1:zero", "in:0x200000:4:" + std::to_string(64 * ctas) + ":in",
              "count:0x300000:4:1:zero"};
  l.params = {"ptr:out", "ptr:in", "ptr:count"};
  return l;
}

TEST(Atomics, GlobalAddIsTheSumOverTheReals) {
  const auto text =
      kernel(".param .u64 p_out, .param .u64 p_in, .param .u64 p_count", kAtomicGlobalBody);
  const auto r = run_ptx(text, atomic_launch(1, false));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  // 1 + 2 + ... + 64 and 0 + 1 + ... + 63.
  EXPECT_EQ(at_ramp(r, "out", 0), "2080");
  EXPECT_EQ(r.expr("count", 0), "2016");
  // Every input appears once.
  const std::string e = r.expr("out", 0);
  for (int i = 0; i < 64; ++i)
    EXPECT_NE(e.find("in[" + std::to_string(i) + "]"), std::string::npos) << i;
}

TEST(Atomics, GlobalAddAcrossEveryCtaIsDeterministic) {
  const auto text =
      kernel(".param .u64 p_out, .param .u64 p_in, .param .u64 p_count", kAtomicGlobalBody);
  const auto a = run_ptx(text, atomic_launch(4, true));
  ASSERT_EQ(a.failure(), nullptr) << a.describe();
  EXPECT_EQ(at_ramp(a, "out", 0), "32896"); // 1 + ... + 256
  EXPECT_EQ(a.expr("count", 0), "32640");   // 0 + ... + 255
  for (int round = 0; round < 3; ++round) {
    const auto b = run_ptx(text, atomic_launch(4, true));
    EXPECT_EQ(a.expr("out", 0), b.expr("out", 0));
  }
}

TEST(Atomics, SharedAddBetweenBarriers) {
  const std::string decls = ".shared .align 4 .f32 s_sum;\n.shared .align 4 .u32 s_count;\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L_wait;
  st.shared.f32 [s_sum], 0f00000000;
  st.shared.u32 [s_count], 0;
$L_wait:
  bar.sync 0;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  atom.shared.add.f32 %f2, [s_sum], %f1;
  atom.shared.add.u32 %r2, [s_count], 1;
  bar.sync 0;
  @%p1 bra $L_end;
  ld.shared.f32 %f3, [s_sum];
  st.global.f32 [%rd0], %f3;
  ld.shared.u32 %r3, [s_count];
  st.global.u32 [%rd0+4], %r3;
$L_end:
  ret;)";
  Launch l;
  l.block = {48, 1, 1};
  l.arrays = {"out:0x100000:4:2:out", "in:0x200000:4:48:in"};
  l.params = {"ptr:out", "ptr:in"};
  const auto r = run_ptx(kernel(kParams, body, decls), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  EXPECT_EQ(at_ramp(r, "out", 0), "1176"); // 1 + ... + 48
  EXPECT_EQ(r.expr("out", 1), "48");
}

TEST(Atomics, IntegerMinAndMax) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  sub.s32 %r2, %r1, 10;
  atom.global.max.s32 %r3, [%rd0], %r2;
  atom.global.min.s32 %r4, [%rd0+4], %r2;
  atom.global.max.u32 %r5, [%rd0+8], %r1;
  ret;)";
  Launch l;
  l.block = {64, 1, 1};
  l.arrays = {"out:0x100000:4:3:zero"};
  l.params = {"ptr:out"};
  const auto r = run_ptx(kernel(".param .u64 p_out", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "53");  // max(0, -10 .. 53)
  EXPECT_EQ(r.expr("out", 1), "-10"); // min(0, -10 .. 53)
  EXPECT_EQ(r.expr("out", 2), "63");
}

TEST(Atomics, TheOldValueIsScheduleDependent) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  atom.global.add.u32 %r2, [%rd0], 1;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2+4], %r2;
  ret;)";
  Launch l;
  l.block = {4, 1, 1};
  l.arrays = {"out:0x100000:4:5:zero"};
  l.params = {"ptr:out"};
  const auto r = run_ptx(kernel(".param .u64 p_out", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  // Safe to run (a race check passes), but no value of out[1..4] can be claimed.
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  auto f = entry::output_failure(*r.run, *r.store, true);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->verdict, Verdict::Unsupported);
}

TEST(Atomics, OrderDependentAtomicsAreRefused) {
  for (const std::string op :
       {"atom.global.exch.b32 %r2, [%rd0], %r1;", "atom.global.cas.b32 %r2, [%rd0], 0, %r1;",
        "atom.global.inc.u32 %r2, [%rd0], %r1;"}) { // inc with per-thread limits
    SCOPED_TRACE(op);
    const std::string body =
        "  ld.param.u64 %rd0, [p_out];\n  mov.u32 %r1, %tid.x;\n  " + op + "\n  ret;";
    const auto text = kernel(".param .u64 p_out", body);
    const auto r = run_ptx(text, one_out(1, {4, 1, 1}));
    ASSERT_NE(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
    EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, op.substr(0, 15)));
  }
}

TEST(Atomics, PlainStoreAfterUnorderedAtomicsRaces) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  red.global.add.u32 [%rd0], 1;
  setp.ne.u32 %p1, %r1, 40;
  @%p1 bra $L_end;
  st.global.u32 [%rd0], 5;
$L_end:
  ret;)";
  Launch l;
  l.block = {64, 1, 1};
  l.arrays = {"out:0x100000:4:1:zero"};
  l.params = {"ptr:out"};
  const auto text = kernel(".param .u64 p_out", body);
  const auto r = run_ptx(text, l);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "st.global.u32 [%rd0], 5"));
  EXPECT_EQ(r.failure()->second->ptx_line, line_of(text, "red.global.add"));
}

// ---------------------------------------------------------------------------------------------
// atom.inc / atom.dec with one limit apply the same function every time: the final value is
// the same in every order. Six increments modulo 4 from 0 leave 2; six decrements with limit
// 3 from 0 go 3, 2, 1, 0, 3, 2.
TEST(Atomics, IncAndDecWithOneLimitWrap) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  atom.global.inc.u32 %r2, [%rd0], 3;
  atom.global.dec.u32 %r3, [%rd0+4], 3;
  ret;)";
  Launch l;
  l.block = {6, 1, 1};
  l.arrays = {"out:0x100000:4:2:zero"};
  l.params = {"ptr:out"};
  const auto r = run_ptx(kernel(".param .u64 p_out", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "2");
  EXPECT_EQ(r.expr("out", 1), "2");
}

// Every dynamic execution of an atomic returns its own unknown: two threads' tickets are not
// the same value (they were once one node per PTX line), and both stay unclaimable.
TEST(Atomics, EveryThreadsOldValueIsItsOwn) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  atom.global.add.u32 %r2, [%rd0], 1;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2+4], %r2;
  ret;)";
  Launch l;
  l.block = {2, 1, 1};
  l.arrays = {"out:0x100000:4:3:zero"};
  l.params = {"ptr:out"};
  const auto r = run_ptx(kernel(".param .u64 p_out", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  auto a = r.element("out", 1), b = r.element("out", 2);
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b);
  EXPECT_EQ(r.store->op(*a), symbolic::Op::Fresh);
  EXPECT_TRUE(r.store->node(*a).taint & symbolic::kTaintAtomicResult);
  EXPECT_EQ(r.expr("out", 0), "2");
}

// atomicMax((int*)p, __float_as_int(x)) orders float bit patterns as signed integers, which is
// max over the reals only for non-negative x: never claimed as a real max.
TEST(Atomics, IntegerMaxOfFloatBitsIsNotARealMax) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  mov.b32 %r2, %f1;
  atom.global.max.s32 %r3, [%rd0], %r2;
  ret;)";
  Launch l;
  l.block = {2, 1, 1};
  l.arrays = {"out:0x100000:4:1:zero", "in:0x200000:4:2:in"};
  l.params = {"ptr:out", "ptr:in"};
  const auto r = run_ptx(kernel(kParams, body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  // A signed integer max of the bit patterns, not (max in[0] in[1]).
  EXPECT_EQ(r.op("out", 0), symbolic::Op::BitOp) << r.expr("out", 0);
  EXPECT_NE(r.expr("out", 0).find("float-bits"), std::string::npos) << r.expr("out", 0);
}

// cp.async
// ---------------------------------------------------------------------------------------------

TEST(CpAsync, CopyCommitWaitThenBarrier) {
  const std::string decls = ".shared .align 16 .b8 s_tile[512];\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 16;
  add.u64 %rd3, %rd1, %rd2;
  mov.u32 %r2, s_tile;
  shl.b32 %r3, %r1, 4;
  add.u32 %r4, %r2, %r3;
  cp.async.cg.shared.global [%r4], [%rd3], 16;
  cp.async.commit_group;
  cp.async.wait_group 0;
  bar.sync 0;
  add.u32 %r5, %r1, 1;
  and.b32 %r6, %r5, 31;
  shl.b32 %r7, %r6, 4;
  add.u32 %r8, %r2, %r7;
  ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r8];
  mul.wide.u32 %rd4, %r1, 16;
  add.u64 %rd5, %rd0, %rd4;
  st.global.v4.f32 [%rd5], {%f1, %f2, %f3, %f4};
  ret;)";
  const auto r = run_ptx(kernel(kParams, body, decls), in_out(128, {32, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  for (int t = 0; t < 32; ++t) {
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(r.expr("out", 4 * t + k), "in[" + std::to_string(4 * ((t + 1) % 32) + k) + "]");
    }
  }
}

TEST(CpAsync, SourceSizeZeroFillsTheRest) {
  const std::string decls = ".shared .align 16 .b8 s_tile[16];\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, s_tile;
  cp.async.ca.shared.global [%r1], [%rd1], 16, 8;
  cp.async.wait_all;
  ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r1];
  st.global.v4.f32 [%rd0], {%f1, %f2, %f3, %f4};
  ret;)";
  Launch l = one_out(4);
  l.arrays.push_back("in:0x200000:4:2:in");
  l.params.push_back("ptr:in");
  const auto r = run_ptx(kernel(kParams, body, decls), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "in[0]");
  EXPECT_EQ(r.expr("out", 1), "in[1]");
  EXPECT_EQ(r.expr("out", 2), "0");
  EXPECT_EQ(r.expr("out", 3), "0");
}

TEST(CpAsync, WaitGroupCompletesTheOlderGroupsFirst) {
  // Two groups: after wait_group 1 the first group's destination holds its data; after
  // wait_group 0 the second's does.
  const std::string decls = ".shared .align 16 .b8 s_tile[32];\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, s_tile;
  cp.async.ca.shared.global [%r1], [%rd1], 4;
  cp.async.commit_group;
  cp.async.ca.shared.global [%r1+16], [%rd1+4], 4;
  cp.async.commit_group;
  cp.async.wait_group 1;
  ld.shared.f32 %f1, [%r1];
  st.global.f32 [%rd0], %f1;
  cp.async.wait_group 0;
  ld.shared.f32 %f3, [%r1+16];
  st.global.f32 [%rd0+4], %f3;
  ret;)";
  Launch l = one_out(2);
  l.arrays.push_back("in:0x200000:4:2:in");
  l.params.push_back("ptr:in");
  const auto r = run_ptx(kernel(kParams, body, decls), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  EXPECT_EQ(r.expr("out", 0), "in[0]");
  EXPECT_EQ(r.expr("out", 1), "in[1]");
}

TEST(CpAsync, ReadingADestinationBeforeItsWaitIsNoValue) {
  // The second group is still in flight after wait_group 1: reading its destination is a hazard
  // (reported as a race) or at least an uninitialized value, never a value of in[1].
  const std::string decls = ".shared .align 16 .b8 s_tile[32];\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, s_tile;
  cp.async.ca.shared.global [%r1], [%rd1], 4;
  cp.async.commit_group;
  cp.async.ca.shared.global [%r1+16], [%rd1+4], 4;
  cp.async.commit_group;
  cp.async.wait_group 1;
  ld.shared.f32 %f2, [%r1+16];
  st.global.f32 [%rd0], %f2;
  cp.async.wait_all;
  ret;)";
  Launch l = one_out(1);
  l.arrays.push_back("in:0x200000:4:2:in");
  l.params.push_back("ptr:in");
  const auto r = run_ptx(kernel(kParams, body, decls), l);
  const Verdict v = r.verdict();
  EXPECT_TRUE(v == Verdict::Uninitialized || v == Verdict::DataRace) << r.describe();
}

// cp.async reads its global source at some time between the copy and the wait_group that
// completes it; a barrier after the copy does not order that read. Here thread 32 overwrites
// the source after a bar.sync that follows thread 0's cp.async but before thread 0 waits, so
// the copied value is 1 or 2 depending on timing: a read-write race. (A regression test: the
// engine once checked the source read at issue time, where the barrier hid the conflict, but
// copied the bytes at wait time, and reported RACE_FREE with out[0] = 2.)
TEST(CpAsync, SourceOverwrittenBeforeTheWaitRaces) {
  const std::string decls = ".shared .align 16 .b8 s_tile[16];\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  setp.ne.u32 %p2, %r1, 32;
  @!%p1 st.global.u32 [%rd1], 1;
  bar.sync 0;
  mov.u32 %r2, s_tile;
  @!%p1 cp.async.ca.shared.global [%r2], [%rd1], 4;
  @!%p1 cp.async.commit_group;
  bar.sync 0;
  @!%p2 st.global.u32 [%rd1], 2;
  bar.sync 0;
  @!%p1 cp.async.wait_group 0;
  bar.sync 0;
  @!%p1 ld.shared.u32 %r3, [s_tile];
  @!%p1 st.global.u32 [%rd0], %r3;
  ret;)";
  Launch l = one_out(1, {64, 1, 1});
  l.arrays.push_back("buf:0x200000:4:1:out");
  l.params.push_back("ptr:buf");
  const auto text = kernel(kParams, body, decls);
  const auto r = run_ptx(text, l);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
}

// A barrier does not complete a cp.async: its destination bytes are in flight from the issue
// until the issuing thread's covering wait. Thread 32 copies in[0] to s_tile; thread 0 reads
// s_tile after a barrier but before thread 32's wait (DATA_RACE naming the cp.async; warp 0
// runs first after the barrier, so the copy is still in flight in the engine's schedule too);
// with the wait before the barrier the read is ordered and sees in[0].
std::string in_flight_kernel(bool wait_before_barrier) {
  const std::string wait = "  @!%p2 cp.async.wait_all;\n";
  return kernel(kParams,
                R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  setp.ne.u32 %p2, %r1, 32;
  mov.u32 %r2, s_tile;
  @!%p2 cp.async.ca.shared.global [%r2], [%rd1], 4;
  @!%p2 cp.async.commit_group;
)" + (wait_before_barrier ? wait : std::string()) +
                    R"(  bar.sync 0;
  @!%p1 ld.shared.f32 %f1, [%r2];
  @!%p1 st.global.f32 [%rd0], %f1;
)" + (wait_before_barrier ? std::string() : wait) +
                    "  ret;",
                ".shared .align 16 .b8 s_tile[16];\n");
}

TEST(CpAsync, AnotherThreadReadingAnInFlightDestinationRaces) {
  const auto text = in_flight_kernel(false);
  const auto r = run_ptx(text, in_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  EXPECT_NE(r.failure()->kind.find("cp.async"), std::string::npos) << r.describe();
  ASSERT_TRUE(r.failure()->first && r.failure()->second);
  EXPECT_EQ(r.failure()->first->thread, 0u);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "ld.shared.f32"));
  EXPECT_EQ(r.failure()->second->thread, 32u);
  EXPECT_EQ(r.failure()->second->ptx_line, line_of(text, "cp.async.ca"));
}

TEST(CpAsync, WaitThenBarrierOrdersAnotherThreadsRead) {
  const auto r = run_ptx(in_flight_kernel(true), in_out(1, {64, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  EXPECT_EQ(r.expr("out", 0), "in[0]");
}

TEST(CpAsync, WaitWithoutABarrierDoesNotOrderAnotherThread) {
  // Thread 0 waits, but thread 32 reads without a barrier after it.
  const auto text = kernel(kParams, R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  setp.ne.u32 %p2, %r1, 32;
  mov.u32 %r2, s_tile;
  @!%p1 cp.async.ca.shared.global [%r2], [%rd1], 4;
  @!%p1 cp.async.wait_all;
  @!%p2 ld.shared.f32 %f1, [%r2];
  @!%p2 st.global.f32 [%rd0], %f1;
  ret;)",
                           ".shared .align 16 .b8 s_tile[16];\n");
  const auto r = run_ptx(text, in_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
}

TEST(CpAsync, AnotherThreadWritingAnInFlightDestinationRaces) {
  // Thread 32 writes the destination after the barrier, before thread 0's wait.
  const auto text = kernel(kParams, R"(
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  setp.ne.u32 %p2, %r1, 32;
  mov.u32 %r2, s_tile;
  @!%p1 cp.async.ca.shared.global [%r2], [%rd1], 4;
  bar.sync 0;
  @!%p2 st.shared.u32 [%r2], 5;
  bar.sync 0;
  @!%p1 cp.async.wait_all;
  ret;)",
                           ".shared .align 16 .b8 s_tile[16];\n");
  const auto r = run_ptx(text, in_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "st.shared.u32"));
  EXPECT_EQ(r.failure()->second->ptx_line, line_of(text, "cp.async.ca"));
}

TEST(CpAsync, IssuingIntoABufferOthersStillReadRaces) {
  // Thread 32 reads s_tile; thread 0 issues a copy into it with no barrier in between.
  const auto text = kernel(kParams, R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  setp.ne.u32 %p2, %r1, 32;
  mov.u32 %r2, s_tile;
  @!%p2 st.shared.u32 [%r2], 1;
  bar.sync 0;
  @!%p2 ld.shared.u32 %r3, [%r2];
  @!%p1 cp.async.ca.shared.global [%r2], [%rd1], 4;
  @!%p1 cp.async.wait_all;
  bar.sync 0;
  ret;)",
                           ".shared .align 16 .b8 s_tile[16];\n");
  const auto r = run_ptx(text, in_out(1, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
}

TEST(CpAsync, SourceBoundsAreChecked) {
  const std::string decls = ".shared .align 16 .b8 s_tile[16];\n";
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, s_tile;
  cp.async.ca.shared.global [%r1], [%rd1+16], 16;
  cp.async.wait_all;
  ret;)";
  Launch l = one_out(1);
  l.arrays.push_back("in:0x200000:4:4:in");
  l.params.push_back("ptr:in");
  const auto r = run_ptx(kernel(kParams, body, decls), l);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::OutOfBounds);
}

} // namespace
} // namespace volta::etest
