// cp.async operand forms (PTX ISA, cp.async): the symbolic engine and the emulator against the
// ISA, byte by byte. Each thread t copies cp-size bytes from src + cp-size * t (an `index` array
// of bytes: src[i] = i mod 256, concrete on both sides) to its own shared slot, waits, and stores
// the slot to out. The ISA says which bytes come from the source: all of them; src-size of them,
// the rest zero-filled; none when the ignore-src predicate is true. A `.L2::cache_hint` cache
// policy operand changes nothing.
#include <fmt/format.h>

#include "engine/symbolic/expr_store.hpp"
#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emutest {
namespace {

struct Form {
  const char* name;
  uint32_t cp_size;
  // The copy instruction; %r10 holds the shared slot, %rd10 the source address, %r11 = t, %r12 =
  // t % (cp_size + 1), %p3 = t is odd, %rd11 a cache policy.
  const char* copy;
  uint32_t (*copied)(uint32_t t, uint32_t cp_size); // bytes taken from the source
};

constexpr Form kForms[] = {
    {"plain", 16, "cp.async.ca.shared.global [%r10], [%rd10], 16;",
     [](uint32_t, uint32_t n) { return n; }},
    {"prefetch_size", 16, "cp.async.cg.shared.global.L2::128B [%r10], [%rd10], 16;",
     [](uint32_t, uint32_t n) { return n; }},
    {"src_size_immediate_not_a_word", 8, "cp.async.ca.shared.global [%r10], [%rd10], 8, 6;",
     [](uint32_t, uint32_t) { return 6u; }},
    {"src_size_register", 16, "cp.async.cg.shared.global [%r10], [%rd10], 16, %r12;",
     [](uint32_t t, uint32_t n) { return t % (n + 1); }},
    {"src_size_register_4", 4, "cp.async.ca.shared.global [%r10], [%rd10], 4, %r12;",
     [](uint32_t t, uint32_t n) { return t % (n + 1); }},
    {"src_size_zero", 16, "cp.async.cg.shared.global [%r10], [%rd10], 16, 0;",
     [](uint32_t, uint32_t) { return 0u; }},
    {"ignore_src", 16, "cp.async.cg.shared.global [%r10], [%rd10], 16, %p3;",
     [](uint32_t t, uint32_t n) { return t % 2 == 1 ? 0u : n; }},
    {"ignore_src_negated", 8, "cp.async.ca.shared.global [%r10], [%rd10], 8, !%p3;",
     [](uint32_t t, uint32_t n) { return t % 2 == 1 ? n : 0u; }},
    {"src_size_cache_hint", 16,
     "cp.async.cg.shared.global.L2::cache_hint [%r10], [%rd10], 16, %r12, %rd11;",
     [](uint32_t t, uint32_t n) { return t % (n + 1); }},
    {"ignore_src_cache_hint", 16,
     "cp.async.cg.shared.global.L2::cache_hint [%r10], [%rd10], 16, %p3, %rd11;",
     [](uint32_t t, uint32_t n) { return t % 2 == 1 ? 0u : n; }},
    {"plain_cache_hint", 16, "cp.async.ca.shared.global.L2::cache_hint [%r10], [%rd10], 16, %rd11;",
     [](uint32_t, uint32_t n) { return n; }},
};

constexpr uint32_t kThreads = 32;

std::string copy_kernel(const Form& f) {
  const uint32_t words = f.cp_size / 4;
  std::string store;
  for (uint32_t w = 0; w < words; ++w) {
    store += fmt::format("  ld.shared.u32 %r{}, [%r10+{}];\n  st.global.u32 [%rd13+{}], %r{};\n",
                         20 + w, 4 * w, 4 * w, 20 + w);
  }
  return kernel(".param .u64 src, .param .u64 out",
                fmt::format(R"(
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [out];
  mov.u32 %r11, %tid.x;
  rem.u32 %r12, %r11, {0};
  and.b32 %r13, %r11, 1;
  setp.eq.u32 %p3, %r13, 1;
  mov.u64 %rd11, 0;
  mul.wide.u32 %rd3, %r11, {1};
  add.s64 %rd10, %rd1, %rd3;
  add.s64 %rd13, %rd2, %rd3;
  mov.u32 %r14, slot;
  mul.lo.u32 %r15, %r11, {1};
  add.u32 %r10, %r14, %r15;
  {2}
  cp.async.commit_group;
  cp.async.wait_all;
{3}  ret;)",
                            f.cp_size + 1, f.cp_size, f.copy, store),
                fmt::format(".shared .align 16 .b8 slot[{}];\n", kThreads * f.cp_size));
}

launch::KernelConfig copy_config(const Form& f) {
  return config({kThreads, 1, 1},
                {fmt::format("src:0x100000:1:{}:index", kThreads * f.cp_size),
                 fmt::format("out:0x200000:4:{}:out", kThreads * f.cp_size / 4)},
                {"ptr:src", "ptr:out"});
}

// Output word i as the ISA says it.
uint32_t expected_word(const Form& f, uint32_t i) {
  const uint32_t t = 4 * i / f.cp_size;
  const uint32_t n = f.copied(t, f.cp_size);
  uint32_t word = 0;
  for (uint32_t b = 0; b < 4; ++b) {
    const uint32_t at = 4 * i + b; // byte offset in src and out
    const uint32_t j = at - t * f.cp_size;
    const uint32_t byte = j < n ? at % 256 : 0;
    word |= byte << (8 * b);
  }
  return word;
}

// The lowered program of PTX text (the test fails when it does not lower).
std::optional<exec::Program> lowered(const std::string& text) {
  auto parsed = ptx::parse(text, "cp_async.ptx");
  if (!parsed.ok()) {
    ADD_FAILURE() << "parse failed:\n" << text;
    return std::nullopt;
  }
  auto l = exec::lower(*parsed.module, "k", text);
  if (!l.program) {
    std::string why;
    for (const auto& d : l.diagnostics)
      why += d.message + "\n";
    ADD_FAILURE() << "lowering failed: " << why << text;
    return std::nullopt;
  }
  return std::move(*l.program);
}

TEST(CpAsyncForms, EngineAndEmulatorFollowTheIsaByteByByte) {
  for (const Form& f : kForms) {
    SCOPED_TRACE(f.name);
    const std::string text = copy_kernel(f);
    const auto program = lowered(text);
    ASSERT_TRUE(program);
    const launch::KernelConfig c = copy_config(f);
    const uint32_t words = kThreads * f.cp_size / 4;

    const emulate::EmulationResult concrete = emulate::emulate(*program, c, {});
    ASSERT_TRUE(concrete.ok()) << concrete.error->text();
    const emulate::ArrayContents* out = concrete.find("out");
    ASSERT_NE(out, nullptr);

    symbolic::ExprStore store;
    const exec::KernelRun run = exec::run_kernel(*program, c, store);
    ASSERT_FALSE(run.failure) << run.failure->message;
    ASSERT_EQ(run.outputs.size(), 1u);
    const auto& elements = run.outputs[0].elements;
    ASSERT_EQ(elements.size(), words);

    for (uint32_t i = 0; i < words; ++i) {
      const uint32_t want = expected_word(f, i);
      EXPECT_EQ(word(*out, i), want) << "emulator, out[" << i << "]";
      const auto& node = store.node(elements[i].second);
      ASSERT_EQ(node.op, symbolic::Op::RawBits) << "engine, out[" << i << "]";
      EXPECT_EQ(node.a, want) << "engine, out[" << i << "]";
    }
  }
}

TEST(CpAsyncForms, LoweringReadsTheFourthOperandByItsType) {
  for (const Form& f : kForms) {
    const auto program = lowered(copy_kernel(f));
    ASSERT_TRUE(program);
    const exec::Inst* copy = nullptr;
    for (const auto& in : program->insts) {
      if (in.op == exec::XOp::CpAsync)
        copy = &in;
    }
    ASSERT_NE(copy, nullptr) << f.name;
    const std::string_view text = f.copy;
    const auto extra = static_cast<exec::CpAsyncExtra>(copy->sub);
    if (text.find("%p3") != std::string_view::npos)
      EXPECT_EQ(extra, exec::CpAsyncExtra::IgnoreSrc) << f.name;
    else if (copy->srcs.size() == 2)
      EXPECT_EQ(extra, exec::CpAsyncExtra::SrcSize) << f.name;
    else
      EXPECT_EQ(extra, exec::CpAsyncExtra::None) << f.name;
    // The cache policy is not an operand of the copy.
    EXPECT_LE(copy->srcs.size(), 2u) << f.name;
  }
}

TEST(CpAsyncForms, SrcSizeAboveCpSizeIsUndefinedOnBothSides) {
  const Form f{"src_size_above", 8, "cp.async.ca.shared.global [%r10], [%rd10], 8, 12;",
               [](uint32_t, uint32_t) { return 0u; }};
  const auto program = lowered(copy_kernel(f));
  ASSERT_TRUE(program);
  const launch::KernelConfig c = copy_config(f);
  const emulate::EmulationResult concrete = emulate::emulate(*program, c, {});
  ASSERT_FALSE(concrete.ok());
  EXPECT_NE(concrete.error->message.find("src-size"), std::string::npos) << concrete.error->message;
  symbolic::ExprStore store;
  const exec::KernelRun run = exec::run_kernel(*program, c, store);
  ASSERT_TRUE(run.failure);
  EXPECT_EQ(run.failure->verdict, Verdict::Unsupported);
  EXPECT_NE(run.failure->message.find("src-size of 12 bytes"), std::string::npos)
      << run.failure->message;
}

// A cache policy without .L2::cache_hint is one operand too many: a located error, not a
// src-size read from a 64-bit register.
TEST(CpAsyncForms, ACachePolicyWithoutTheQualifierIsBadInput) {
  const std::string text =
      kernel(".param .u64 src",
             "  ld.param.u64 %rd1, [src];\n  mov.u32 %r10, slot;\n  mov.u64 %rd11, 0;\n"
             "  cp.async.cg.shared.global [%r10], [%rd1], 16, 16, %rd11;\n  ret;",
             ".shared .align 16 .b8 slot[16];\n");
  auto parsed = ptx::parse(text, "cp_async.ptx");
  ASSERT_TRUE(parsed.ok());
  auto l = exec::lower(*parsed.module, "k", text);
  ASSERT_FALSE(l.diagnostics.empty());
  EXPECT_NE(l.diagnostics.front().message.find("expects 3 or 4 operands"), std::string::npos)
      << l.diagnostics.front().message;
}

} // namespace
} // namespace volta::emutest
