// CTA barriers on the emulator, in the forms the engine distinguishes (engine/exec/
// exec_barrier.cpp, tests/exec/barrier_forms_test.cpp): `barrier.sync` without .aligned reached
// from two instructions is one barrier; .aligned (`bar.sync`) from two instructions, or below
// sm_70 a warp split over two, is undefined ("barrier divergence"); a barrier with a thread count
// counts arrivals by warp, once per warp, and exits do not release it.
#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emutest {
namespace {

constexpr std::string_view kShared = ".shared .align 4 .b8 s[256];\n";

// 64 threads: even lanes write s[t] = t + 1000 and wait at `even_barrier`, odd lanes write
// s[t] = t + 2000 and wait at `odd_barrier`; after the join each thread stores s[t ^ 1].
std::string split_kernel(std::string_view even_barrier, std::string_view odd_barrier,
                         std::string_view target = "sm_80") {
  std::string body = R"(
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r4, %r3, %r2;
  and.b32 %r5, %r1, 1;
  setp.eq.u32 %p1, %r5, 1;
  @%p1 bra $L_odd;
  add.u32 %r6, %r1, 1000;
  st.shared.u32 [%r4], %r6;
  EVEN_BARRIER;
  bra.uni $L_join;
$L_odd:
  add.u32 %r6, %r1, 2000;
  st.shared.u32 [%r4], %r6;
  ODD_BARRIER;
$L_join:
  xor.b32 %r7, %r2, 4;
  add.u32 %r8, %r3, %r7;
  ld.shared.u32 %r9, [%r8];
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r9;
  ret;)";
  body.replace(body.find("EVEN_BARRIER"), 12, even_barrier);
  body.replace(body.find("ODD_BARRIER"), 11, odd_barrier);
  std::string text = kernel(".param .u64 out", body, kShared);
  text.replace(text.find("sm_80"), 5, target);
  return text;
}

launch::KernelConfig split_config() {
  return config({64, 1, 1}, {"OUT:0x100000:4:64:out"}, {"ptr:OUT"});
}

TEST(EmulateBarriers, NonAlignedBarrierFromTwoInstructionsIsOneBarrier) {
  auto r = run_text(split_kernel("barrier.sync 0", "barrier.sync 0"), split_config());
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t other = t ^ 1;
    EXPECT_EQ(word(r.result.outputs[0], t), other + (other & 1 ? 2000u : 1000u)) << t;
  }
}

TEST(EmulateBarriers, AlignedBarrierFromTwoInstructionsIsUndefined) {
  for (const auto& [even, odd] : std::vector<std::pair<std::string, std::string>>{
           {"bar.sync 0", "bar.sync 0"},
           {"barrier.sync.aligned 0", "barrier.sync.aligned 0"},
           {"barrier.sync 0", "bar.sync 0"}}) {
    auto r = run_text(split_kernel(even, odd), split_config());
    ASSERT_TRUE(r.result.error) << even << " / " << odd;
    EXPECT_EQ(r.result.error->kind, "barrier divergence") << r.result.error->text();
  }
  auto sm60 = run_text(split_kernel("barrier.sync 0", "barrier.sync 0", "sm_60"), split_config());
  ASSERT_TRUE(sm60.result.error);
  EXPECT_EQ(sm60.result.error->kind, "barrier divergence") << sm60.result.error->text();
}

// The lanes of each warp split over two `barrier.sync 1, 64` (no .aligned): a warp arrives once,
// when its last lane does. With both warps the count of 64 is reached; when warp 1 exits first,
// warp 0 alone is 32 arrivals, whichever instructions its lanes wait at (counting each part of
// a warp as 32 threads would fire it), and exits do not release a barrier with a count.
std::string split_counted(bool warp1_exits) {
  std::string body = R"(
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, %tid.x;
  EXIT
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  and.b32 %r5, %r1, 1;
  setp.eq.u32 %p1, %r5, 1;
  @%p1 bra $L_odd;
  barrier.sync 1, 64;
  bra.uni $L_join;
$L_odd:
  barrier.sync 1, 64;
$L_join:
  xor.b32 %r7, %r2, 4;
  add.u32 %r8, %r3, %r7;
  ld.shared.u32 %r9, [%r8];
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r9;
  ret;)";
  body.replace(body.find("EXIT"), 4, warp1_exits ? "setp.ge.u32 %p2, %r1, 32;\n  @%p2 exit;" : "");
  return kernel(".param .u64 out", body, kShared);
}

TEST(EmulateBarriers, AWarpArrivesOnceAtACountedBarrier) {
  auto both = run_text(split_counted(false), split_config());
  ASSERT_TRUE(both.result.ok()) << both.result.error->text();
  for (uint32_t t = 0; t < 64; ++t)
    EXPECT_EQ(word(both.result.outputs[0], t), t ^ 1u) << t;
  auto alone = run_text(split_counted(true), split_config());
  ASSERT_TRUE(alone.result.error);
  EXPECT_EQ(alone.result.error->kind, "deadlock") << alone.result.error->text();
}

TEST(EmulateBarriers, ExitedLanesOfAWaitingWarp) {
  auto text = [](std::string_view barrier) {
    std::string body = R"(
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r5, %r1, 1;
  setp.eq.u32 %p1, %r5, 1;
  @%p1 exit;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  BARRIER;
  xor.b32 %r7, %r2, 8;
  add.u32 %r8, %r3, %r7;
  ld.shared.u32 %r9, [%r8];
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r9;
  ret;)";
    body.replace(body.find("BARRIER"), 7, barrier);
    return kernel(".param .u64 out", body, kShared);
  };
  for (const char* legal : {"barrier.sync 0", "barrier.sync 0, 64"}) {
    auto r = run_text(text(legal), split_config());
    ASSERT_TRUE(r.result.ok()) << legal << ": " << r.result.error->text();
    for (uint32_t t = 0; t < 64; t += 2)
      EXPECT_EQ(word(r.result.outputs[0], t), t ^ 2u) << t;
  }
  auto r = run_text(text("bar.sync 0"), split_config());
  ASSERT_TRUE(r.result.error);
  EXPECT_EQ(r.result.error->kind, "barrier divergence") << r.result.error->text();
}

} // namespace
} // namespace volta::emutest

namespace volta::emutest {
namespace {

// Named barriers (bar.arrive, bar.sync with a thread count) on the emulator, as in the symbolic
// CTA (tests/exec/named_barriers_test.cpp): warp 0 (the producer) writes s[lane] = 100 + lane
// for `rounds` rounds (adding 1000 each round) and arrives at barrier 1 after each; warp 1 (the
// consumer) waits at barrier 1 and stores s[lane] into out[32 * round + lane], then arrives at
// barrier 2, at which the producer waits before its next round. `consumer_count` is the count
// of the consumer's bar.sync 1.
std::string ping_pong(uint32_t rounds, std::string_view consumer_count = "64") {
  std::string body = R"(
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, s;
  add.u32 %r5, %r4, %r3;
  add.u32 %r6, %r2, 100;
  mov.u32 %r7, 0;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $L_consumer;
$L_produce:
  setp.eq.u32 %p2, %r7, 0;
  @!%p2 bar.sync 2, 64;
  st.shared.u32 [%r5], %r6;
  bar.arrive 1, 64;
  add.u32 %r6, %r6, 1000;
  add.u32 %r7, %r7, 1;
  setp.lt.u32 %p3, %r7, ROUNDS;
  @%p3 bra $L_produce;
  ret;
$L_consumer:
  bar.sync 1, COUNT;
  ld.shared.u32 %r8, [%r5];
  shl.b32 %r9, %r7, 5;
  add.u32 %r9, %r9, %r2;
  mul.wide.u32 %rd1, %r9, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r8;
  add.u32 %r7, %r7, 1;
  setp.lt.u32 %p3, %r7, ROUNDS;
  @!%p3 bra $L_done;
  bar.arrive 2, 64;
  bra.uni $L_consumer;
$L_done:
  ret;)";
  const std::string r = std::to_string(rounds);
  while (body.find("ROUNDS") != std::string::npos)
    body.replace(body.find("ROUNDS"), 6, r);
  body.replace(body.find("COUNT"), 5, consumer_count);
  return kernel(".param .u64 out", body, kShared);
}

launch::KernelConfig ping_pong_config(uint32_t threads = 64) {
  return config({threads, 1, 1}, {"OUT:0x100000:4:128:out"}, {"ptr:OUT"});
}

TEST(EmulateNamedBarriers, ProducerConsumerPhasesInALoop) {
  auto r = run_text(ping_pong(4), ping_pong_config());
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  for (uint32_t round = 0; round < 4; ++round) {
    for (uint32_t l = 0; l < 32; ++l)
      EXPECT_EQ(word(r.result.outputs[0], 32 * round + l), 100 + l + 1000 * round) << round;
  }
  // The symbolic CTA runs the same phases and finds them race-free.
  const auto engine = engine_failure(ping_pong(4), ping_pong_config());
  EXPECT_FALSE(engine.has_value()) << engine->message;
}

TEST(EmulateNamedBarriers, CountsDisagreeOrNeverComplete) {
  // 96 threads, warp 2 exits: barrier 1 with a count of 96 never gets its third warp.
  auto three_warps = [](std::string_view producer_count) {
    std::string text = ping_pong(1, "96");
    text.replace(text.find("  @%p1 bra $L_consumer;"), 0,
                 "  setp.ge.u32 %p5, %r1, 64;\n  @%p5 exit;\n");
    text.replace(text.find("bar.arrive 1, 64"), 16, "bar.arrive 1, " + std::string(producer_count));
    return text;
  };
  // The producer arrives with 64, the consumer waits with 96: undefined.
  auto r = run_text(three_warps("64"), ping_pong_config(96));
  ASSERT_TRUE(r.result.error);
  EXPECT_EQ(r.result.error->kind, "barrier divergence") << r.result.error->text();
  // Both with 96: the deadlock, naming the barrier and who waits.
  auto stuck = run_text(three_warps("96"), ping_pong_config(96));
  ASSERT_TRUE(stuck.result.error);
  EXPECT_EQ(stuck.result.error->kind, "deadlock") << stuck.result.error->text();
  EXPECT_NE(stuck.result.error->text().find("barrier 1 (thread count 96, 64 arrived; threads "
                                            "32-63 wait)"),
            std::string::npos)
      << stuck.result.error->text();
}

TEST(EmulateNamedBarriers, AWarpThatArrivesAndThenWaitsCountsTwice) {
  // FlashAttention-3's epilogue (tests/exec/named_barriers_test.cpp): warps 0 and 1 write and
  // arrive at barrier 1, warp 1 also waits there with bar.sync (count 96 = three arrivals) and
  // reads what warp 0 wrote; warp 2 takes no part.
  std::string body = R"(
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, s;
  add.u32 %r5, %r4, %r3;
  setp.ge.u32 %p1, %r1, 64;
  @%p1 bra $L_done;
  setp.ge.u32 %p2, %r1, 32;
  @%p2 bra $L_store_warp;
  add.u32 %r6, %r2, 100;
  st.shared.u32 [%r5], %r6;
  bar.arrive 1, 96;
  bra.uni $L_done;
$L_store_warp:
  bar.arrive 1, 96;
  bar.sync 1, 96;
  ld.shared.u32 %r8, [%r5];
  mul.wide.u32 %rd1, %r2, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r8;
$L_done:
  ret;)";
  const std::string text = kernel(".param .u64 out", body, kShared);
  auto r = run_text(text, ping_pong_config(96));
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  for (uint32_t l = 0; l < 32; ++l)
    EXPECT_EQ(word(r.result.outputs[0], l), 100 + l) << l;
  const auto engine = engine_failure(text, ping_pong_config(96));
  EXPECT_FALSE(engine.has_value()) << engine->message;
}

TEST(EmulateNamedBarriers, BarArriveByPartOfAWarpIsRefused) {
  std::string text = ping_pong(1);
  text.replace(text.find("bar.arrive 1, 64"), 16,
               "setp.lt.u32 %p4, %r2, 16;\n  @%p4 bar.arrive 1, 64");
  auto r = run_text(text, ping_pong_config());
  ASSERT_TRUE(r.result.error);
  EXPECT_EQ(r.result.error->kind, "unsupported") << r.result.error->text();
}

} // namespace
} // namespace volta::emutest
