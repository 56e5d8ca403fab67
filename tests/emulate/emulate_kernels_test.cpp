// Whole kernels on the emulator: warp shuffles and votes, a barrier reduction over shared
// memory, and the GEMM examples on random inputs.
#include <atomic>
#include <cmath>
#include <filesystem>

#include "engine/exec/run_kernel.hpp"
#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emutest {
namespace {

TEST(EmulateKernels, ShuffleButterflySumAndBallot) {
  const std::string text = kernel(".param .u64 out", R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %r1;
  shfl.sync.bfly.b32 %r3, %r2, 16, 31, -1;
  add.u32 %r2, %r2, %r3;
  shfl.sync.bfly.b32 %r3, %r2, 8, 31, -1;
  add.u32 %r2, %r2, %r3;
  shfl.sync.bfly.b32 %r3, %r2, 4, 31, -1;
  add.u32 %r2, %r2, %r3;
  shfl.sync.bfly.b32 %r3, %r2, 2, 31, -1;
  add.u32 %r2, %r2, %r3;
  shfl.sync.bfly.b32 %r3, %r2, 1, 31, -1;
  add.u32 %r2, %r2, %r3;
  shfl.sync.down.b32 %r4|%p2, %r1, 1, 31, -1;
  and.b32 %r5, %r1, 1;
  setp.eq.u32 %p1, %r5, 1;
  vote.sync.ballot.b32 %r6, %p1, -1;
  mul.wide.u32 %rd2, %r1, 12;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  st.global.u32 [%rd3+4], %r4;
  st.global.u32 [%rd3+8], %r6;
  ret;)");
  auto c = config({32, 1, 1}, {"OUT:0x100000:4:96:out"}, {"ptr:OUT"});
  auto r = run_text(text, c);
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  const auto& o = r.result.outputs[0];
  for (uint32_t lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(word(o, 3 * lane), 496u);
    EXPECT_EQ(word(o, 3 * lane + 1), lane == 31 ? 31u : lane + 1); // the last lane keeps its own
    EXPECT_EQ(word(o, 3 * lane + 2), 0xaaaaaaaau);
  }
}

// redux.sync and match.sync over the even lanes (the member mask 0x55555555; the odd lanes
// branch away): the values tests/exec/warp_test.cpp's Redux tests give the symbolic CTA.
TEST(EmulateKernels, ReduxAndMatchOverTheMemberLanes) {
  const std::string text = kernel(".param .u64 out", R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra END;
  sub.s32 %r3, 10, %r1;
  redux.sync.add.s32 %r4, %r3, 0x55555555;
  redux.sync.min.s32 %r5, %r3, 0x55555555;
  redux.sync.min.u32 %r6, %r3, 0x55555555;
  redux.sync.max.s32 %r7, %r3, 0x55555555;
  redux.sync.or.b32 %r8, %r1, 0x55555555;
  shr.u32 %r9, %r1, 3;
  match.any.sync.b32 %r10, %r9, 0x55555555;
  match.all.sync.b32 %r11|%p2, %r9, 0x55555555;
  selp.u32 %r12, 1, 0, %p2;
  match.all.sync.b32 %r13|%p3, %r2, 0x55555555;
  selp.u32 %r14, 1, 0, %p3;
  mul.wide.u32 %rd2, %r1, 40;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  st.global.u32 [%rd3+4], %r5;
  st.global.u32 [%rd3+8], %r6;
  st.global.u32 [%rd3+12], %r7;
  st.global.u32 [%rd3+16], %r8;
  st.global.u32 [%rd3+20], %r10;
  st.global.u32 [%rd3+24], %r11;
  st.global.u32 [%rd3+28], %r12;
  st.global.u32 [%rd3+32], %r13;
  st.global.u32 [%rd3+36], %r14;
END:
  ret;)");
  auto c = config({32, 1, 1}, {"OUT:0x100000:4:320:out"}, {"ptr:OUT"});
  auto r = run_text(text, c);
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  const auto& o = r.result.outputs[0];
  for (uint32_t lane = 0; lane < 32; lane += 2) {
    EXPECT_EQ(word(o, 10 * lane), static_cast<uint32_t>(-80));
    EXPECT_EQ(word(o, 10 * lane + 1), static_cast<uint32_t>(-20));
    EXPECT_EQ(word(o, 10 * lane + 2), 0u);
    EXPECT_EQ(word(o, 10 * lane + 3), 10u);
    EXPECT_EQ(word(o, 10 * lane + 4), 30u);
    // lane >> 3 groups the even lanes by eights: 0x55 << (8 * group).
    EXPECT_EQ(word(o, 10 * lane + 5), 0x55u << (8 * (lane / 8))) << lane;
    EXPECT_EQ(word(o, 10 * lane + 6), 0u);
    EXPECT_EQ(word(o, 10 * lane + 7), 0u);
    EXPECT_EQ(word(o, 10 * lane + 8), 0x55555555u); // lane & 1 is 0 in every member
    EXPECT_EQ(word(o, 10 * lane + 9), 1u);
  }
}

TEST(EmulateKernels, SharedMemoryTreeReductionWithBarriers) {
  // 128 threads: s[t] = in[t]; for (s = 64; s > 0; s >>= 1) { sync; if (t < s) s[t] += s[t+s]; }
  const std::string text = kernel(".param .u64 out, .param .u64 in", R"(
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  mov.u64 %rd5, smem;
  add.s64 %rd6, %rd5, %rd3;
  st.shared.f32 [%rd6], %f1;
  mov.u32 %r2, 64;
LOOP:
  bar.sync 0;
  setp.ge.u32 %p1, %r1, %r2;
  @%p1 bra SKIP;
  shl.b32 %r3, %r2, 2;
  cvt.u64.u32 %rd7, %r3;
  add.s64 %rd8, %rd6, %rd7;
  ld.shared.f32 %f2, [%rd8];
  ld.shared.f32 %f3, [%rd6];
  add.f32 %f4, %f3, %f2;
  st.shared.f32 [%rd6], %f4;
SKIP:
  shr.u32 %r2, %r2, 1;
  setp.ne.u32 %p2, %r2, 0;
  @%p2 bra LOOP;
  bar.sync 0;
  setp.ne.u32 %p3, %r1, 0;
  @%p3 bra END;
  ld.shared.f32 %f5, [smem];
  st.global.f32 [%rd1], %f5;
END:
  ret;)",
                                  ".shared .align 4 .b8 smem[512];\n");
  auto c =
      config({128, 1, 1}, {"OUT:0x100000:4:1:out", "IN:0x200000:4:128:in"}, {"ptr:OUT", "ptr:IN"});
  emulate::Inputs in;
  std::vector<float> values(128);
  for (int i = 0; i < 128; ++i)
    values[i] = static_cast<float>(i) * 0.5f;
  in.arrays["IN"] = floats(values);
  auto r = run_text(text, c, in);
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  EXPECT_EQ(as_float(word(r.result.outputs[0], 0)), 127.0f * 128.0f / 4.0f);
  EXPECT_TRUE(r.result.outputs[0].written[0]);
}

// Warp 0 leaves; warp 1 waits for 64 threads at barrier 1, which only 32 can reach (a named
// barrier counts arrivals per warp and exited threads do not count).
TEST(EmulateKernels, BarrierDeadlockIsReported) {
  const std::string text = kernel("", R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra END;
  bar.sync 1, 64;
END:
  ret;)");
  auto c = config({64, 1, 1}, {}, {});
  auto r = run_text(text, c);
  ASSERT_TRUE(r.result.error);
  EXPECT_EQ(r.result.error->kind, "deadlock");
}

// One element past a shared array lands in the red zone before the next variable: the emulator
// refused only accesses past the whole shared window, and ran examples/safety/oob_shared to the
// end, while an H200 stopped the same kernel with an illegal address (scripts/hardware-check).
TEST(EmulateKernels, SharedAccessOnePastTheVariableIsOutOfBounds) {
  const std::string text = kernel(".param .u64 out", R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  ld.shared.u32 %r5, [%r4+4];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;)",
                                  ".shared .align 4 .b8 s[128];\n.shared .align 4 .b8 t[128];\n");
  auto c = config({32, 1, 1}, {"OUT:0x100000:4:32:out"}, {"ptr:OUT"});
  auto r = run_text(text, c);
  ASSERT_TRUE(r.result.error);
  EXPECT_EQ(r.result.error->kind, "out of bounds");
  EXPECT_NE(r.result.error->text().find("thread 31"), std::string::npos) << r.result.error->text();
}
// The GEMM examples (32x32x32, grid 2x2 of 16x16 CTAs) on the same random inputs.
emulate::EmulationResult run_gemm(const std::string& name, const emulate::Inputs& inputs) {
  const std::string path =
      std::string(VOLTA_SOURCE_DIR) + "/examples/kernels/gemm/" + name + ".ptx";
  auto loaded = exec::load_kernel(path, name);
  EXPECT_TRUE(loaded.kernel) << path;
  if (!loaded.kernel)
    return {};
  auto c =
      config({16, 16, 1}, {"A:0x100000:4:1024:in", "B:0x200000:4:1024:in", "C:0x300000:4:1024:out"},
             {"ptr:A", "ptr:B", "ptr:C"}, {2, 2, 1});
  return emulate::emulate(loaded.kernel->program, c, inputs);
}

TEST(EmulateKernels, GemmNaiveAndTiledAgreeOnRandomInputs) {
  auto c =
      config({16, 16, 1}, {"A:0x100000:4:1024:in", "B:0x200000:4:1024:in", "C:0x300000:4:1024:out"},
             {"ptr:A", "ptr:B", "ptr:C"}, {2, 2, 1});
  const emulate::Inputs inputs = emulate::random_inputs(c, 7);
  const auto naive = run_gemm("gemm_naive", inputs);
  const auto tiled = run_gemm("gemm_tiled", inputs);
  ASSERT_TRUE(naive.ok()) << naive.error->text();
  ASSERT_TRUE(tiled.ok()) << tiled.error->text();
  const auto* cn = naive.find("C");
  const auto* ct = tiled.find("C");
  ASSERT_TRUE(cn && ct);
  const auto& A = inputs.arrays.at("A");
  const auto& B = inputs.arrays.at("B");
  auto at = [](const std::vector<uint8_t>& bytes, size_t i) {
    float f;
    std::memcpy(&f, bytes.data() + 4 * i, 4);
    return double{f};
  };
  for (size_t i = 0; i < 1024; ++i) {
    ASSERT_TRUE(cn->written[i] && ct->written[i]) << i;
    double exact = 0;
    for (size_t k = 0; k < 32; ++k)
      exact += at(A, (i / 32) * 32 + k) * at(B, k * 32 + i % 32);
    EXPECT_NEAR(cn->value(i), exact, 1e-4) << i;
    EXPECT_NEAR(ct->value(i), cn->value(i), 1e-4) << i;
  }
  // The random inputs are reproducible and in [-2, 2].
  const emulate::Inputs again = emulate::random_inputs(c, 7);
  EXPECT_EQ(again.arrays.at("A"), A);
  for (size_t i = 0; i < 1024; ++i)
    EXPECT_LE(std::fabs(at(A, i)), 2.0);
}

} // namespace
} // namespace volta::emutest

namespace volta::emutest {
namespace {

// Every pair of examples/advanced that the verifier proves EQUIVALENT computes nearly the same
// floats on random inputs (tensor-core kernels included: mma.sync, wmma, ldmatrix, cp.async).
TEST(EmulateKernels, AdvancedEquivalentPairsAgreeOnRandomInputs) {
  auto m =
      launch::read_manifest(std::string(VOLTA_SOURCE_DIR) + "/examples/advanced/manifest.json");
  ASSERT_TRUE(m.manifest);
  size_t compared = 0;
  for (const auto& e : m.manifest->entries) {
    if (e.kind != launch::EntryKind::Equivalence || e.expected != Verdict::Equivalent)
      continue;
    const emulate::Inputs inputs = emulate::random_inputs(e.reference, 11);
    std::vector<emulate::EmulationResult> runs;
    for (const auto* c : {&e.reference, &e.optimized}) {
      auto loaded = exec::load_kernel(c->ptx_path, c->entry);
      ASSERT_TRUE(loaded.kernel) << e.name;
      runs.push_back(emulate::emulate(loaded.kernel->program, *c, inputs));
      ASSERT_TRUE(runs.back().ok()) << e.name << ": " << runs.back().error->text();
    }
    for (const auto& out : runs[0].outputs) {
      // Kernels on half-precision data may accumulate in f16 (10-bit significands).
      bool half = false;
      for (const auto& a : e.reference.arrays)
        half = half || a.elem_width == 2;
      const double tolerance = half ? 5e-2 : 1e-3;
      const auto* other = runs[1].find(out.name);
      ASSERT_TRUE(other) << e.name << " " << out.name;
      for (uint64_t i = 0; i < out.len; ++i) {
        if (!out.written[i])
          continue;
        ASSERT_TRUE(other->written[i]) << e.name << " " << out.name << "[" << i << "]";
        EXPECT_NEAR(out.value(i), other->value(i), tolerance * (1 + std::fabs(out.value(i))))
            << e.name << " " << out.name << "[" << i << "]";
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 1000u);
}

// A read of the padding between two kernel parameters (`.u32 n` at 0, `.u64 out` at 8: bytes
// 4..7 hold no value the host passed) is out of bounds on both CTA machines. The emulator used
// to read zeros there (it checked only the end of the parameter buffer) while the symbolic
// engine called it out of bounds; both now share exec::param_area (PTX ISA: only declared
// parameters have a value).
TEST(EmulateKernels, ParameterPaddingIsOutOfBoundsOnBothMachines) {
  const std::string text = kernel(".param .u32 n, .param .u64 out", R"(
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n+4];
  st.global.u32 [%rd1], %r1;
  ret;)");
  auto c = config({1, 1, 1}, {"OUT:0x100000:4:1:out"}, {"int:7", "ptr:OUT"});
  auto r = run_text(text, c);
  ASSERT_TRUE(r.result.error.has_value()) << "the emulator read the padding";
  EXPECT_EQ(r.result.error->kind, "out of bounds") << r.result.error->text();

  const std::optional<exec::Failure> run_failure = engine_failure(text, c);
  ASSERT_TRUE(run_failure.has_value()) << "the symbolic engine read the padding";
  EXPECT_EQ(run_failure->verdict, Verdict::OutOfBounds) << run_failure->message;

  // The parameter itself reads fine on the emulator.
  const std::string inside = kernel(".param .u32 n, .param .u64 out", R"(
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  st.global.u32 [%rd1], %r1;
  ret;)");
  auto ok = run_text(inside, c);
  ASSERT_TRUE(ok.result.ok()) << ok.result.error->text();
  EXPECT_EQ(word(ok.result.outputs[0], 0), 7u);
}

// Falling off the end of the kernel is an exit like `ret` on both machines (one exit path,
// exec/cta_schedule.hpp): a lane waiting at a collective whose other member fell off the end goes
// on without it. The symbolic engine once left it waiting and reported a DEADLOCK, which the
// emulator (and a GPU: exited lanes no longer take part) does not have.
TEST(EmulateKernels, CollectiveWhoseMemberFellOffTheEndCompletesOnBothMachines) {
  for (const char* end : {"", "  ret;"}) {
    const std::string text = kernel(".param .u64 out", std::string(R"(
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  add.u32 %r3, %r1, 40;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 bra DONE;
  shfl.sync.idx.b32 %r2, %r3, 0, 31, 3;
  st.global.u32 [%rd2], %r2;
  ret;
DONE:
)") + end);
    SCOPED_TRACE(*end == 0 ? "falling off the end" : "ret");
    auto c = config({2, 1, 1}, {"OUT:0x100000:4:1:out"}, {"ptr:OUT"});
    auto r = run_text(text, c);
    ASSERT_TRUE(r.result.ok()) << r.result.error->text();
    EXPECT_EQ(word(r.result.outputs[0], 0), 40u); // lane 0 alone: its own value

    const std::optional<exec::Failure> run_failure = engine_failure(text, c);
    EXPECT_FALSE(run_failure.has_value()) << run_failure->message;
  }
}

// Two half-warps at one shfl.sync with disjoint member masks are two groups of the same
// instruction (exec::member_group, shared by both machines): each shuffles within its half. The
// emulator once read the first lane's mask for the whole warp and called the second half
// undefined; masks that overlap without being equal are undefined on both.
TEST(EmulateKernels, DisjointMemberMasksAtOneShuffleAreTwoGroupsOnBothMachines) {
  auto text_with = [](const char* high_mask) {
    return kernel(".param .u64 out", std::string(R"(
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  add.u32 %r3, %r1, 100;
  setp.lt.u32 %p1, %r1, 16;
  selp.b32 %r4, 65535, )") + high_mask + R"(, %p1;
  shfl.sync.bfly.b32 %r2, %r3, 1, 31, %r4;
  st.global.u32 [%rd4], %r2;
  ret;
)");
  };
  const std::string text = text_with("-65536");
  auto c = config({32, 1, 1}, {"OUT:0x100000:4:32:out"}, {"ptr:OUT"});
  auto r = run_text(text, c);
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  for (uint32_t l = 0; l < 32; ++l)
    EXPECT_EQ(word(r.result.outputs[0], l), 100u + (l ^ 1u)) << l;
  const std::optional<exec::Failure> run_failure = engine_failure(text, c);
  EXPECT_FALSE(run_failure.has_value()) << run_failure->message;

  // 0xffff0000 | 0x8000 names lane 15 of the other half: the halves disagree on who synchronizes.
  const std::string overlapping = text_with("-32768");
  auto bad = run_text(overlapping, c);
  ASSERT_FALSE(bad.result.ok());
  EXPECT_NE(bad.result.error->text().find("that name each other"), std::string::npos)
      << bad.result.error->text();
  const std::optional<exec::Failure> bad_run_failure = engine_failure(overlapping, c);
  ASSERT_TRUE(bad_run_failure.has_value());
  EXPECT_NE(bad_run_failure->message.find("that name each other"), std::string::npos)
      << bad_run_failure->message;
}

// A thread that falls off the end with a cp.async in flight completes it as it leaves, as at
// `ret` (the symbolic engine once left it in flight): the read after the barrier that the exit
// releases conflicts with the completed copy, the same race report either way.
TEST(EmulateKernels, CopyInFlightCompletesWhenTheThreadFallsOffTheEnd) {
  std::vector<std::string> messages;
  for (const char* end : {"", "  ret;"}) {
    const std::string text = kernel(".param .u64 in, .param .u64 out", std::string(R"(
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r3, buf;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra COPY;
  bar.sync 0;
  ld.shared.u32 %r2, [buf];
  setp.eq.u32 %p2, %r1, 0;
  @%p2 st.global.u32 [%rd4], %r2;
  ret;
COPY:
  setp.ne.u32 %p3, %r1, 32;
  @%p3 bra DONE;
  cp.async.ca.shared.global [%r3], [%rd3], 4;
  cp.async.commit_group;
DONE:
)") + end,
                                    ".shared .align 4 .b8 buf[4];\n");
    SCOPED_TRACE(*end == 0 ? "falling off the end" : "ret");
    auto c =
        config({64, 1, 1}, {"IN:0x100000:4:1:in", "OUT:0x200000:4:1:out"}, {"ptr:IN", "ptr:OUT"});
    const std::optional<exec::Failure> run_failure = engine_failure(text, c);
    ASSERT_TRUE(run_failure.has_value());
    EXPECT_EQ(run_failure->verdict, Verdict::DataRace) << run_failure->message;
    // A conflict with the completed write, not a read while the copy is still in flight.
    EXPECT_EQ(run_failure->message.find("in flight"), std::string::npos) << run_failure->message;
    messages.push_back(run_failure->message);
  }
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0], messages[1]);
}

// The emulator's guards in the shared run loop's begin_instruction hook: past the instruction
// budget, or once cancelled, the run stops at the instruction about to run, located.
TEST(EmulateKernels, BudgetAndCancellationStopAtTheNextInstruction) {
  const std::string text = kernel(".param .u64 out", R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 0;
LOOP:
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, 1000;
  @%p1 bra LOOP;
  st.global.u32 [%rd1], %r1;
  ret;)");
  auto c = config({32, 1, 1}, {"OUT:0x100000:4:1:out"}, {"ptr:OUT"});
  auto parsed = ptx::parse(text, "test.ptx");
  ASSERT_TRUE(parsed.ok());
  auto lowered = exec::lower(*parsed.module, c.entry, text);
  ASSERT_TRUE(lowered.program);

  emulate::EmulateOptions budget;
  budget.max_instructions = 32 * 100; // 100 warp instructions
  const auto over = emulate::emulate(*lowered.program, c, {}, budget);
  ASSERT_TRUE(over.error.has_value()) << "the loop ran past its budget";
  EXPECT_EQ(over.error->kind, "instruction budget") << over.error->text();
  EXPECT_NE(over.error->ptx_line, 0u) << "located at an instruction";
  EXPECT_EQ(over.instructions, 32u * 101) << "stops at the first instruction past it";

  std::atomic<bool> cancel{true};
  emulate::EmulateOptions cancelled;
  cancelled.cancel = &cancel;
  const auto stopped = emulate::emulate(*lowered.program, c, {}, cancelled);
  ASSERT_TRUE(stopped.error.has_value());
  EXPECT_EQ(stopped.error->kind, "cancelled") << stopped.error->text();

  const auto whole = emulate::emulate(*lowered.program, c, {});
  ASSERT_TRUE(whole.ok()) << whole.error->text();
  EXPECT_EQ(word(whole.outputs[0], 0), 1000u);
}

} // namespace
} // namespace volta::emutest
