// The emulator's warp loops (float_warp, integer_warp, convert_warp, load_warp, store_warp and
// the scheduling hint) against lane-by-lane execution (EmulateOptions::lane_by_lane): every
// kernel of the example manifests and the soundness suite, on the three input sets of the
// emulator cross-check (the specials among them: NaN payloads, infinities, -0, subnormals in
// integer data), must give the same bytes, written flags, thread-instruction count, notes,
// RealArithmeticEvents and errors both ways.
#include <gtest/gtest.h>
#include <set>
#include <string>

#include "engine/emulate/conversion_memo.hpp"
#include "engine/emulate/edge_inputs.hpp"
#include "engine/emulate/emulator.hpp"
#include "engine/emulate/float_semantics.hpp"
#include "engine/exec/lower.hpp"
#include "engine/exec/run_kernel.hpp"
#include "engine/launch/manifest.hpp"
#include "ptx/parser.hpp"
#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emutest {
namespace {

struct Outcome {
  emulate::EmulationResult result;
  emulate::RealArithmeticEvents events;
};

Outcome run(const exec::Program& program, const launch::KernelConfig& config,
            const emulate::Inputs& inputs, bool lane_by_lane) {
  emulate::EmulateOptions options;
  options.lane_by_lane = lane_by_lane;
  options.max_instructions = 50'000'000;
  emulate::reset_real_arithmetic_events();
  Outcome o{emulate::emulate(program, config, inputs, options), {}};
  o.events = emulate::real_arithmetic_events();
  return o;
}

void expect_same(const Outcome& warp, const Outcome& lanes, const std::string& where) {
  ASSERT_EQ(warp.result.ok(), lanes.result.ok()) << where;
  if (!warp.result.ok()) {
    EXPECT_EQ(warp.result.error->kind, lanes.result.error->kind) << where;
    EXPECT_EQ(warp.result.error->text(), lanes.result.error->text()) << where;
    EXPECT_EQ(warp.result.error->thread, lanes.result.error->thread) << where;
    return;
  }
  EXPECT_EQ(warp.result.instructions, lanes.result.instructions) << where;
  EXPECT_EQ(warp.result.uninitialized_reads, lanes.result.uninitialized_reads) << where;
  EXPECT_EQ(warp.result.first_uninitialized_read, lanes.result.first_uninitialized_read) << where;
  EXPECT_EQ(warp.result.foreign_reads, lanes.result.foreign_reads) << where;
  EXPECT_EQ(warp.events.invalid, lanes.events.invalid) << where;
  EXPECT_EQ(warp.events.division_by_zero, lanes.events.division_by_zero) << where;
  EXPECT_EQ(warp.events.overflow, lanes.events.overflow) << where;
  EXPECT_EQ(warp.events.underflow, lanes.events.underflow) << where;
  EXPECT_EQ(warp.events.inexact, lanes.events.inexact) << where;
  ASSERT_EQ(warp.result.outputs.size(), lanes.result.outputs.size()) << where;
  for (size_t i = 0; i < warp.result.outputs.size(); ++i) {
    const auto& a = warp.result.outputs[i];
    const auto& b = lanes.result.outputs[i];
    EXPECT_EQ(a.bytes, b.bytes) << where << " " << a.name;
    EXPECT_EQ(a.written, b.written) << where << " " << a.name;
  }
}

std::vector<const launch::KernelConfig*> kernels_of(const launch::ManifestEntry& e) {
  if (e.kind == launch::EntryKind::Equivalence)
    return {&e.reference, &e.optimized};
  return {&e.kernel};
}

TEST(WarpPaths, AgreeWithLaneByLaneExecutionOnEveryExampleKernel) {
  std::set<std::pair<std::string, std::string>> seen; // (ptx, entry): one comparison per kernel
  size_t compared = 0, failed_runs = 0;
  for (const char* m : {"examples/manifest.json", "examples/safety/manifest.json",
                        "examples/idioms/manifest.json", "examples/mutations/manifest.json",
                        "examples/advanced/manifest.json", "examples/soundness/manifest.json",
                        "examples/packed/manifest.json", "examples/float/manifest.json"}) {
    const std::string path = std::string(VOLTA_SOURCE_DIR) + "/" + m;
    const auto manifest = launch::read_manifest(path);
    if (!manifest.manifest)
      continue; // a folder without this manifest
    for (const auto& e : manifest.manifest->entries) {
      for (const auto* c : kernels_of(e)) {
        if (!e.error.empty() || !seen.insert({c->ptx_path, c->entry}).second)
          continue;
        const auto loaded = exec::load_kernel(c->ptx_path, c->entry);
        if (!loaded.kernel)
          continue;
        for (uint32_t set = 0; set < emulate::kEdgeInputSets; ++set) {
          const emulate::Inputs inputs =
              emulate::edge_inputs(*c, set, emulate::declared_elem_types(*c));
          const Outcome warp = run(loaded.kernel->program, *c, inputs, false);
          const Outcome lanes = run(loaded.kernel->program, *c, inputs, true);
          expect_same(warp, lanes, e.name + " " + c->entry + " set " + std::to_string(set));
          failed_runs += warp.result.ok() ? 0 : 1;
          ++compared;
        }
      }
    }
  }
  // Hundreds of kernels, most of them running to the end.
  EXPECT_GT(compared, 1500u);
  EXPECT_LT(failed_runs, compared / 2);
}

TEST(WarpPaths, TheConversionMemoAgreesWithLaneByLaneConversion) {
  // Enough narrow-source conversions of one shape for the memo to make its table
  // (ConversionMemo::kWorthATable lanes), over every 16-bit pattern the loop meets: f16 and
  // bf16 NaNs with payloads, infinities, -0 and subnormals among them; the f16 -> f32, bf16 ->
  // f32, s8 -> s32 and f16 -> u8 (.rzi, saturating, so NaN and overflows) results folded into
  // one store per thread.
  const std::string text = kernel("\n  .param .u64 out", R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  mov.u32 %r3, 0;
LOOP:
  mad.lo.u32 %r4, %r1, 2053, %r2;
  mul.lo.u32 %r5, %r4, 40503;
  cvt.u16.u32 %h1, %r5;
  cvt.f32.f16 %f1, %h1;
  mov.b32 %r6, %f1;
  xor.b32 %r3, %r3, %r6;
  mov.b32 %r7, {0, %h1};
  shr.u32 %r7, %r7, 16;
  cvt.u16.u32 %h2, %r7;
  cvt.f32.bf16 %f2, %h2;
  mov.b32 %r8, %f2;
  add.u32 %r3, %r3, %r8;
  cvt.s32.s8 %r9, %r5;
  xor.b32 %r3, %r3, %r9;
  cvt.rzi.sat.u8.f16 %h3, %h1;
  cvt.u32.u16 %r10, %h3;
  add.u32 %r3, %r3, %r10;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 2048;
  @%p1 bra LOOP;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;)");
  const launch::KernelConfig c = config({32, 1, 1}, {"out:0x1000:4:32:out"}, {"ptr:out"});
  auto parsed = ptx::parse(text, "test.ptx");
  ASSERT_TRUE(parsed.ok()) << text;
  auto lowered = exec::lower(*parsed.module, c.entry, text);
  ASSERT_TRUE(lowered.program);
  static_assert(32u * 2048u >= emulate::ConversionMemo::kWorthATable);
  const Outcome warp = run(*lowered.program, c, {}, false);
  const Outcome lanes = run(*lowered.program, c, {}, true);
  ASSERT_TRUE(warp.result.ok()) << warp.result.error->text();
  expect_same(warp, lanes, "conversion memo");
}

} // namespace
} // namespace volta::emutest
