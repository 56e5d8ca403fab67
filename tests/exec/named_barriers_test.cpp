// Named barriers (PTX ISA, "barrier", "bar"): `bar.sync id, count` and `bar.arrive id, count`
// between producer and consumer warps in the symbolic CTA (engine/exec/exec_barrier.cpp) and the
// order they give the race check (NamedBarrierOrder, engine/exec/named_barrier_order.hpp): the
// arrive releases what came before it, the completed sync acquires it; nothing orders two warps
// that only arrive, or what a producer does after its arrive.
#include <gtest/gtest.h>

#include "engine/exec/named_barrier_order.hpp"
#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

bool contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

constexpr std::string_view kShared = ".shared .align 4 .b8 s[256];\n";

// Producer threads (tid < 32, or tid >= 32 when `consumer_first`) run `producer`, the others
// `consumer`. Registers: %r1 tid, %r5 &s[lane], %rd2 &out[tid].
std::string warp_specialized(std::string_view producer, std::string_view consumer,
                             bool consumer_first = false) {
  std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, s;
  add.u32 %r5, %r4, %r3;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  setp.CMP.u32 %p1, %r1, 32;
  @%p1 bra $L_consumer;
PRODUCER
  ret;
$L_consumer:
CONSUMER
  ret;)";
  body.replace(body.find("CMP"), 3, consumer_first ? "lt" : "ge");
  body.replace(body.find("PRODUCER"), 8, producer);
  body.replace(body.find("CONSUMER"), 8, consumer);
  return kernel(".param .u64 p_out", body, kShared);
}

constexpr std::string_view kProduce = "  st.shared.u32 [%r5], %r1;\n  bar.arrive 1, 64;";
constexpr std::string_view kConsume =
    "  bar.sync 1, 64;\n  ld.shared.u32 %r6, [%r5];\n  st.global.u32 [%rd2], %r6;";

TEST(NamedBarriers, ProducerConsumerIsRaceFreeWhicheverWarpComesFirst) {
  for (bool consumer_first : {false, true}) {
    SCOPED_TRACE(consumer_first ? "consumer is warp 0" : "producer is warp 0");
    const auto r =
        run_ptx(warp_specialized(kProduce, kConsume, consumer_first), one_out(64, {64, 1, 1}));
    ASSERT_EQ(r.verdict(), Verdict::RaceFree) << r.describe();
    const uint32_t consumer = consumer_first ? 0 : 32;
    for (uint32_t l = 0; l < 32; ++l)
      EXPECT_EQ(r.expr("out", consumer + l), std::to_string((consumer + l) ^ 32u)) << l;
    EXPECT_EQ(r.run->stats.barriers, 1u);
  }
}

TEST(NamedBarriers, AWriteAfterTheArriveRacesWithTheConsumer) {
  const auto text = warp_specialized(
      "  st.shared.u32 [%r5], %r1;\n  bar.arrive 1, 64;\n  st.shared.u32 [%r5], %r2;", kConsume);
  const auto r = run_ptx(text, one_out(64, {64, 1, 1}));
  ASSERT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
  ASSERT_TRUE(r.run->failure->second.has_value());
  EXPECT_EQ(r.run->failure->first->ptx_line, line_of(text, "ld.shared.u32"));
  EXPECT_EQ(r.run->failure->second->ptx_line, line_of(text, "st.shared.u32 [%r5], %r2"));
}

TEST(NamedBarriers, AReadBeforeTheSyncRacesWithTheProducer) {
  const auto text = warp_specialized(
      kProduce, "  ld.shared.u32 %r6, [%r5];\n  bar.sync 1, 64;\n  st.global.u32 [%rd2], %r6;");
  const auto r = run_ptx(text, one_out(64, {64, 1, 1}));
  EXPECT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
}

TEST(NamedBarriers, TheConsumersReadsAreNotOrderedBeforeTheProducersNextPhase) {
  // The producer writes again after waiting at barrier 1 for a second time, but the consumer
  // only arrives there after reading: its reads are released to the producer, whose overwrite
  // is ordered after them. Without that arrive (a bar.sync of a barrier the producer does not
  // wait at) the overwrite races with the reads.
  const std::string producer = "  st.shared.u32 [%r5], %r1;\n  bar.arrive 1, 64;\n"
                               "  bar.sync 2, 64;\n  st.shared.u32 [%r5], %r2;";
  const auto ordered =
      run_ptx(warp_specialized(producer, std::string(kConsume) + "\n  bar.arrive 2, 64;", true),
              one_out(64, {64, 1, 1}));
  EXPECT_EQ(ordered.verdict(), Verdict::RaceFree) << ordered.describe();
  const std::string unordered_producer = "  st.shared.u32 [%r5], %r1;\n  bar.arrive 1, 64;\n"
                                         "  bar.arrive 2, 64;\n  st.shared.u32 [%r5], %r2;";
  const auto racy = run_ptx(
      warp_specialized(unordered_producer, std::string(kConsume) + "\n  bar.sync 2, 64;", true),
      one_out(64, {64, 1, 1}));
  EXPECT_EQ(racy.verdict(), Verdict::DataRace) << racy.describe();
}

TEST(NamedBarriers, APhaseThatNeverCompletesIsADeadlockNamingTheBarrier) {
  // 96 threads: warp 0 arrives at barrier 1 (count 96), warp 1 waits there, warp 2 exits.
  const auto text = warp_specialized(
      "  bar.arrive 1, 96;",
      "  setp.ge.u32 %p2, %r1, 64;\n  @%p2 ret;\n  bar.sync 1, 96;\n  st.global.u32 [%rd2], %r1;");
  const auto r = run_ptx(text, one_out(96, {96, 1, 1}));
  ASSERT_EQ(r.verdict(), Verdict::Deadlock) << r.describe();
  EXPECT_TRUE(contains(r.run->failure->message,
                       "barrier 1 (thread count 96, 64 arrived; threads 32-63 wait)"))
      << r.run->failure->message;
  EXPECT_EQ(r.run->failure->first->ptx_line, line_of(text, "bar.sync 1, 96"));
}

TEST(NamedBarriers, DifferentCountsAtOneBarrierDiverge) {
  const auto text = warp_specialized(
      "  bar.arrive 1, 64;",
      "  setp.ge.u32 %p2, %r1, 64;\n  @%p2 ret;\n  bar.sync 1, 96;\n  st.global.u32 [%rd2], %r1;");
  const auto r = run_ptx(text, one_out(128, {128, 1, 1}));
  ASSERT_EQ(r.verdict(), Verdict::BarrierDivergence) << r.describe();
  EXPECT_TRUE(contains(r.run->failure->message, "thread count 64")) << r.run->failure->message;
}

TEST(NamedBarriers, AWaiterWithoutACountAtANamedPhaseDiverges) {
  // `bar.sync 1` means every thread of the CTA (128), the producer's arrival says 64.
  const auto text = warp_specialized(
      "  bar.arrive 1, 64;",
      "  setp.ge.u32 %p2, %r1, 64;\n  @%p2 ret;\n  bar.sync 1;\n  st.global.u32 [%rd2], %r1;");
  const auto r = run_ptx(text, one_out(128, {128, 1, 1}));
  ASSERT_EQ(r.verdict(), Verdict::BarrierDivergence) << r.describe();
  EXPECT_TRUE(contains(r.run->failure->message, "no thread count")) << r.run->failure->message;
  EXPECT_EQ(r.run->failure->first->ptx_line, line_of(text, "bar.sync 1;"));
}

TEST(NamedBarriers, AnArrivalWhosePhaseDependsOnTheScheduleIsRefused) {
  // The producer arrives twice without waiting: in this schedule the consumer (warp 0) waits
  // first and each arrival completes one of its phases; another schedule completes the first
  // phase with the producer's two arrivals, and the consumer waits for ever.
  const auto r = run_ptx(
      warp_specialized("  bar.arrive 1, 64;\n  bar.arrive 1, 64;",
                       "  bar.sync 1, 64;\n  bar.sync 1, 64;\n  st.global.u32 [%rd2], %r1;", true),
      one_out(64, {64, 1, 1}));
  ASSERT_EQ(r.verdict(), Verdict::Unsupported) << r.describe();
  EXPECT_TRUE(contains(r.run->failure->message, "depends on the schedule"))
      << r.run->failure->message;
}

TEST(NamedBarriers, AWarpThatArrivesAndThenWaitsCountsTwice) {
  // FlashAttention-3's epilogue: every consumer warp arrives after its writes to shared memory,
  // and the store warp (here warp 2) waits in the same phase as well, so the count is the
  // warps' arrivals plus one (128 for three warps; warp 3 takes no part). Whatever the schedule,
  // the phase completes only with all four arrivals, and the store warp reads what warp 0 wrote.
  const auto r = run_ptx(warp_specialized("  st.shared.u32 [%r5], %r1;\n  bar.arrive 1, 128;",
                                          "  setp.ge.u32 %p3, %r1, 96;\n"
                                          "  @%p3 bra $L_done;\n"
                                          "  bar.arrive 1, 128;\n"
                                          "  setp.lt.u32 %p2, %r1, 64;\n"
                                          "  @%p2 bra $L_done;\n"
                                          "  bar.sync 1, 128;\n"
                                          "  ld.shared.u32 %r6, [%r5];\n"
                                          "  st.global.u32 [%rd2], %r6;\n"
                                          "$L_done:"),
                         one_out(128, {128, 1, 1}));
  ASSERT_EQ(r.verdict(), Verdict::RaceFree) << r.describe();
  for (uint32_t l = 0; l < 32; ++l)
    EXPECT_EQ(r.expr("out", 64 + l), std::to_string(l)) << l;
}

TEST(NamedBarriers, AWarpWhoseTwoArrivalsCompleteThePhaseAloneIsNoProof) {
  // The same with one warp fewer in the count: the store warp's two arrivals and warp 1's may
  // complete the phase without warp 0's (a race on s), or warp 0's arrival with the first two
  // (nobody waiting: the store warp then waits for ever).
  const auto r = run_ptx(warp_specialized("  st.shared.u32 [%r5], %r1;\n  bar.arrive 1, 96;",
                                          "  setp.ge.u32 %p3, %r1, 96;\n"
                                          "  @%p3 bra $L_done;\n"
                                          "  bar.arrive 1, 96;\n"
                                          "  setp.lt.u32 %p2, %r1, 64;\n"
                                          "  @%p2 bra $L_done;\n"
                                          "  bar.sync 1, 96;\n"
                                          "  ld.shared.u32 %r6, [%r5];\n"
                                          "  st.global.u32 [%rd2], %r6;\n"
                                          "$L_done:"),
                         one_out(128, {128, 1, 1}));
  // In the engine's one schedule warps 0, 1 and 2 arrive in turn and complete the phase with
  // nobody waiting: a real deadlock of that schedule.
  EXPECT_TRUE(r.verdict() == Verdict::Deadlock || r.verdict() == Verdict::DataRace) << r.describe();
}

TEST(NamedBarriers, ACountAboveTheCtaWithArrivalsIsNoDeadlock) {
  // 64 threads, a count of 96: warp 1 arrives and then waits, so three arrivals may complete
  // the phase. Not a deadlock; refused (a phase of more threads than the CTA has).
  const auto r = run_ptx(warp_specialized("  st.shared.u32 [%r5], %r1;\n  bar.arrive 1, 96;",
                                          "  bar.arrive 1, 96;\n  bar.sync 1, 96;\n"
                                          "  ld.shared.u32 %r6, [%r5];\n"
                                          "  st.global.u32 [%rd2], %r6;"),
                         one_out(64, {64, 1, 1}));
  ASSERT_EQ(r.verdict(), Verdict::Unsupported) << r.describe();
  EXPECT_TRUE(contains(r.run->failure->message, "more than the CTA's 64"))
      << r.run->failure->message;
}

TEST(NamedBarriers, MoreArrivalsThanTheCountAreRefused) {
  // Three warps wait at a barrier of 64 threads: which two complete it depends on the schedule.
  const auto r =
      run_ptx(warp_specialized("  bar.sync 1, 64;", "  bar.sync 1, 64;"), one_out(96, {96, 1, 1}));
  ASSERT_EQ(r.verdict(), Verdict::Unsupported) << r.describe();
  EXPECT_TRUE(contains(r.run->failure->message, "96 arrivals for a thread count of 64"))
      << r.run->failure->message;
}

TEST(NamedBarriers, BarArriveNeedsAThreadCount) {
  const auto text = warp_specialized("  bar.arrive 1;", kConsume);
  const auto r = run_ptx(text, one_out(64, {64, 1, 1}));
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_TRUE(contains(r.diagnostics[0].message, "takes a barrier and a thread count"))
      << r.diagnostics[0].message;
  EXPECT_EQ(r.diagnostics[0].where.line, line_of(text, "bar.arrive 1;"));
}

TEST(NamedBarriers, SpellingsOfArriveAreOneInstruction) {
  for (std::string_view arrive : {"barrier.arrive 1, 64;", "barrier.cta.arrive 1, 64;",
                                  "barrier.arrive.aligned 1, 64;", "bar.cta.arrive 1, 64;"}) {
    SCOPED_TRACE(arrive);
    const auto r =
        run_ptx(warp_specialized("  st.shared.u32 [%r5], %r1;\n  " + std::string(arrive), kConsume),
                one_out(64, {64, 1, 1}));
    EXPECT_EQ(r.verdict(), Verdict::RaceFree) << r.describe();
  }
}

// NamedBarrierOrder on its own: the vector clocks and the one-schedule check.
TEST(NamedBarrierOrder, ArrivalsAreReleasedToTheWaitersOnly) {
  exec::NamedBarrierOrder o(3);
  EXPECT_EQ(o.clock(2), nullptr);    // nothing ordered yet
  EXPECT_TRUE(o.arrive(1, 0, 4, 1)); // two producers
  EXPECT_TRUE(o.arrive(1, 1, 7, 1));
  EXPECT_TRUE(o.arrive(1, 2, 0, 1)); // the consumer's bar.sync
  const std::pair<uint32_t, uint32_t> waiters[] = {{2, 1}};
  o.complete(1, waiters, 1);
  ASSERT_NE(o.clock(2), nullptr);
  EXPECT_EQ(o.clock(2)[0], 5u); // warp 0's accesses of phases up to 4
  EXPECT_EQ(o.clock(2)[1], 8u);
  EXPECT_EQ(o.clock(0)[1], 0u); // the producers are not ordered with each other
  EXPECT_EQ(o.clock(1)[0], 0u);
}

TEST(NamedBarrierOrder, TheOrderIsTransitive) {
  exec::NamedBarrierOrder o(3);
  const std::pair<uint32_t, uint32_t> w1[] = {{1, 3}}, w2[] = {{2, 1}};
  EXPECT_TRUE(o.arrive(1, 0, 2, 1));
  o.complete(1, w1, 1); // warp 1 acquires warp 0's phases up to 2
  EXPECT_TRUE(o.arrive(2, 1, 3, 1));
  o.complete(2, w2, 1); // warp 2 acquires warp 1's, and what warp 1 had acquired
  EXPECT_EQ(o.clock(2)[0], 3u);
  EXPECT_EQ(o.clock(2)[1], 4u);
}

TEST(NamedBarrierOrder, ArrivalsOfTheNextPhaseMustComeAfterTheLastCompletion) {
  exec::NamedBarrierOrder o(2);
  EXPECT_TRUE(o.arrive(1, 0, 0, 1));
  // A warp's second arrival in one phase (before any completion) is counted, not refused.
  EXPECT_TRUE(o.arrive(1, 0, 1, 1));
  exec::NamedBarrierOrder p(2);
  const std::pair<uint32_t, uint32_t> consumer[] = {{1, 1}};
  EXPECT_TRUE(p.arrive(1, 0, 0, 1));
  p.complete(1, consumer, 1);
  // Warp 0 arrives again, ordered after nothing the consumer did since: another schedule may
  // let that arrival join the completed phase.
  EXPECT_FALSE(p.arrive(1, 0, 1, 1));
  // After a CTA-wide barrier (a new epoch) it is ordered.
  exec::NamedBarrierOrder q(2);
  EXPECT_TRUE(q.arrive(1, 0, 0, 1));
  q.complete(1, consumer, 1);
  EXPECT_TRUE(q.arrive(1, 0, 1, 2));
  // Or once the consumer released something to warp 0 after the completion (phase >= 1).
  exec::NamedBarrierOrder r(2);
  EXPECT_TRUE(r.arrive(1, 0, 0, 1));
  r.complete(1, consumer, 1);
  EXPECT_TRUE(r.arrive(2, 1, 1, 1));
  const std::pair<uint32_t, uint32_t> producer[] = {{0, 2}};
  r.complete(2, producer, 1);
  EXPECT_TRUE(r.arrive(1, 0, 2, 1));
}

} // namespace
} // namespace volta::etest
