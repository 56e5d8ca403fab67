// Warp collectives: shfl.sync in every mode with PTX's exact clamp/segment rules (which lane each
// thread reads, and the predicate it gets), vote.sync, activemask and bar.warp.sync.
#include <functional>
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

constexpr const char* kShflParams = ".param .u64 p_out, .param .u64 p_in, .param .u64 p_pred";

// Lane l loads in[l], computes the shuffle operand b into %r3 (`b_code` may use %r1 = lane),
// shuffles with clamp/segment operand `c` and the full member mask, and stores the value to
// out[l] and the predicate to pred[l].
Result run_shfl(const std::string& mode, const std::string& b_code, uint32_t c) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.param.u64 %rd5, [p_pred];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  mov.b32 %r2, %f1;
)" + b_code + "\n  shfl.sync." +
                           mode + ".b32 %r4|%p1, %r2, %r3, " + std::to_string(c) +
                           R"(, 0xFFFFFFFF;
  mov.b32 %f2, %r4;
  add.u64 %rd4, %rd0, %rd2;
  st.global.f32 [%rd4], %f2;
  selp.u32 %r5, 1, 0, %p1;
  add.u64 %rd6, %rd5, %rd2;
  st.global.u32 [%rd6], %r5;
  ret;)";
  Launch l;
  l.block = {32, 1, 1};
  l.arrays = {"out:0x100000:4:32:out", "in:0x200000:4:32:in", "pred:0x300000:4:32:out"};
  l.params = {"ptr:out", "ptr:in", "ptr:pred"};
  return run_ptx(kernel(kShflParams, body), l);
}

// Checks that lane l read in[source(l)] (or its own value when source(l) < 0, with a false
// predicate).
void expect_sources(const Result& r, const std::function<int(int)>& source) {
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (int l = 0; l < 32; ++l) {
    const int s = source(l);
    EXPECT_EQ(r.expr("out", l), "in[" + std::to_string(s < 0 ? l : s) + "]") << "lane " << l;
    EXPECT_EQ(r.expr("pred", l), s < 0 ? "0" : "1") << "lane " << l;
  }
}

std::string imm(int b) {
  return "  mov.u32 %r3, " + std::to_string(b) + ";";
}

// CUDA's c operand for a width: ((32 - width) << 8) | clamp.
uint32_t segments(uint32_t width, uint32_t clamp) {
  return ((32 - width) << 8) | clamp;
}

TEST(Shfl, IndexFullWarp) {
  expect_sources(run_shfl("idx", imm(3), 0x1f), [](int) { return 3; });
  // Only the low five bits of the lane operand count.
  expect_sources(run_shfl("idx", imm(37), 0x1f), [](int) { return 5; });
  expect_sources(run_shfl("idx", "  mul.lo.u32 %r3, %r1, 5;\n  and.b32 %r3, %r3, 31;", 0x1f),
                 [](int l) { return (5 * l) % 32; });
}

TEST(Shfl, IndexWithinSegments) {
  // __shfl_sync(v, 5, 8): lane l reads lane 8 * (l / 8) + 5.
  expect_sources(run_shfl("idx", imm(5), segments(8, 0x1f)), [](int l) { return l / 8 * 8 + 5; });
  // __shfl_sync(v, 13, 8): the source lane wraps inside the segment (13 % 8 = 5).
  expect_sources(run_shfl("idx", imm(13), segments(8, 0x1f)), [](int l) { return l / 8 * 8 + 5; });
}

TEST(Shfl, IndexWithAClampBelowTheWarp) {
  // c = 15, no segments: maxLane = 15, so a source lane above 15 is out of range (own value).
  expect_sources(run_shfl("idx", imm(10), 15), [](int) { return 10; });
  expect_sources(run_shfl("idx", imm(20), 15), [](int) { return -1; });
  // Segment mask 0b11100 with clamp 0: maxLane = minLane = l & 28, so only a lane operand whose
  // low two bits are 0 stays in range, and it reads the first lane of the segment.
  expect_sources(run_shfl("idx", imm(4), 0x1C00), [](int l) { return l & 28; });
  expect_sources(run_shfl("idx", imm(1), 0x1C00), [](int) { return -1; });
}

TEST(Shfl, Up) {
  // __shfl_up_sync(v, 1): lane l reads l - 1; lane 0 keeps its value.
  expect_sources(run_shfl("up", imm(1), 0), [](int l) { return l >= 1 ? l - 1 : -1; });
  // __shfl_up_sync(v, 2, 8): within segments of 8.
  expect_sources(run_shfl("up", imm(2), segments(8, 0)),
                 [](int l) { return l % 8 >= 2 ? l - 2 : -1; });
  // A clamp of 5 without segments: j = l - 1 must be >= 5.
  expect_sources(run_shfl("up", imm(1), 5), [](int l) { return l - 1 >= 5 ? l - 1 : -1; });
}

TEST(Shfl, Down) {
  // __shfl_down_sync(v, 4): lane l reads l + 4 up to lane 31.
  expect_sources(run_shfl("down", imm(4), 0x1f), [](int l) { return l + 4 <= 31 ? l + 4 : -1; });
  // __shfl_down_sync(v, 3, 16): within segments of 16.
  expect_sources(run_shfl("down", imm(3), segments(16, 0x1f)),
                 [](int l) { return l % 16 + 3 < 16 ? l + 3 : -1; });
  // A clamp of 7 without segments: j = l + 1 must be <= 7.
  expect_sources(run_shfl("down", imm(1), 7), [](int l) { return l + 1 <= 7 ? l + 1 : -1; });
  // An offset of 32 wraps to 0 (five bits): every lane reads itself, in range.
  expect_sources(run_shfl("down", imm(32), 0x1f), [](int l) { return l; });
}

TEST(Shfl, Butterfly) {
  expect_sources(run_shfl("bfly", imm(1), 0x1f), [](int l) { return l ^ 1; });
  expect_sources(run_shfl("bfly", imm(2), segments(4, 0x1f)), [](int l) { return l ^ 2; });
  // __shfl_xor_sync(v, 16, 8): PTX only checks j <= maxLane, so a lane may read an earlier
  // segment (lane 20 reads lane 4) but not a later one (lane 4 keeps its value), as the CUDA
  // guide says.
  expect_sources(run_shfl("bfly", imm(16), segments(8, 0x1f)),
                 [](int l) { return l >= 16 ? l - 16 : -1; });
}

TEST(Shfl, ReadingALaneOutsideTheMemberMaskIsUndefined) {
  // Lanes 0..15 shuffle down by 8 with member mask 0xFFFF: lanes 0..7 read lanes 8..15, lanes
  // 8..15 read lanes 16..23, which do not take part: undefined values reach out[8..15].
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %laneid;
  setp.ge.u32 %p2, %r1, 16;
  @%p2 bra $L_end;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  shfl.sync.down.b32 %f2, %f1, 8, 31, 0x0000FFFF;
  add.u64 %rd4, %rd0, %rd2;
  st.global.f32 [%rd4], %f2;
$L_end:
  ret;)";
  Launch l;
  l.block = {32, 1, 1};
  l.arrays = {"out:0x100000:4:16:out", "in:0x200000:4:32:in"};
  l.params = {"ptr:out", "ptr:in"};
  const auto r = run_ptx(kernel(".param .u64 p_out, .param .u64 p_in", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (int lane = 0; lane < 8; ++lane)
    EXPECT_EQ(r.expr("out", lane), "in[" + std::to_string(lane + 8) + "]");
  EXPECT_EQ(r.verdict(), Verdict::Uninitialized);
  auto f = entry::output_failure(*r.run, *r.store, false);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->location, "out[8]");
}

// An exited lane may be named in a member mask: it just does not take part (CUDA: "all
// non-exited threads named in mask"). Lane 2 reads lane 3, which exited: an undefined value,
// but no deadlock and no divergence.
TEST(Shfl, MemberThatExitedDoesNotTakePart) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %laneid;
  setp.eq.u32 %p2, %r1, 3;
  @%p2 ret;
  shfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xFFFFFFFF;
  setp.ne.u32 %p3, %r1, 0;
  @%p3 bra $L_end;
  st.global.u32 [%rd0], %r2;
$L_end:
  ret;)";
  const auto text = kernel(".param .u64 p_out", body);
  const auto r = run_ptx(text, one_out(1, {32, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  EXPECT_EQ(r.expr("out", 0), "1");
}

// The exited lane exits after the others arrived at the collective: they must not wait for it.
TEST(WarpSync, LanesWaitingForALaneThatExitsGoOn) {
  const std::string body = R"(
  mov.u32 %r1, %laneid;
  setp.eq.u32 %p2, %r1, 31;
  @%p2 bra $L_late;
  bar.warp.sync 0xFFFFFFFF;
  ret;
$L_late:
  add.u32 %r2, %r1, 1;
  add.u32 %r2, %r2, 1;
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body), one_out(1, {32, 1, 1}));
  EXPECT_EQ(r.failure(), nullptr) << r.describe();
}

// A lane executing a collective without its own bit in the member mask is undefined behaviour:
// reported as an invalid synchronization (BARRIER_DIVERGENCE), never RACE_FREE.
TEST(Shfl, LaneOutsideItsOwnMemberMaskIsInvalid) {
  for (const std::string inst :
       {"shfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xFFFFFFFE;",
        "vote.sync.ballot.b32 %r2, %p1, 0xFFFFFFFE;", "bar.warp.sync 0xFFFFFFFE;"}) {
    const std::string body =
        "  mov.u32 %r1, %laneid;\n  setp.eq.u32 %p1, %r1, 0;\n  " + inst + "\n  ret;";
    const auto text = kernel(".param .u64 p_out", body);
    const auto r = run_ptx(text, one_out(1, {32, 1, 1}));
    ASSERT_NE(r.failure(), nullptr) << inst << ": " << r.describe();
    EXPECT_EQ(r.failure()->verdict, Verdict::BarrierDivergence) << inst;
    EXPECT_EQ(r.failure()->first->thread, 0u) << inst;
    EXPECT_NE(r.failure()->message.find("does not include the lane itself"), std::string::npos)
        << r.failure()->message;
  }
}

// Two disjoint groups at one instruction (lanes 0..15 with mask 0xFFFF, lanes 16..31 with mask
// 0xFFFF0000) are two collectives: each ballot sees its own group.
TEST(Vote, DisjointMemberMasksAtOneInstructionAreTwoGroups) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %laneid;
  setp.lt.u32 %p1, %r1, 16;
  selp.u32 %r4, 0x0000FFFF, 0xFFFF0000, %p1;
  and.b32 %r5, %r1, 1;
  setp.eq.u32 %p2, %r5, 0;
  vote.sync.ballot.b32 %r2, %p2, %r4;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r2;
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body), one_out(32, {32, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), std::to_string(0x5555u));
  EXPECT_EQ(r.expr("out", 31), std::to_string(0x55550000u));
}

// Lanes 0 and 1 name each other with different masks: undefined behaviour.
TEST(Vote, OverlappingDifferentMasksAreInvalid) {
  const std::string body = R"(
  mov.u32 %r1, %laneid;
  setp.eq.u32 %p1, %r1, 0;
  selp.u32 %r4, 0xFFFFFFFF, 0x7FFFFFFF, %p1;
  vote.sync.ballot.b32 %r2, %p1, %r4;
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body), one_out(1, {32, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::BarrierDivergence);
}

// __syncwarp() from two program points is legal on sm_70+: lanes at different bar.warp.sync
// instructions with the same mask synchronize together, and order lane 0's store before lane
// 16's load.
TEST(WarpSync, SyncwarpFromTwoProgramPointsSynchronizes) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %laneid;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $L_high;
  setp.ne.u32 %p2, %r1, 0;
  @!%p2 st.shared.u32 [s_word], 42;
  bar.warp.sync 0xFFFFFFFF;
  bra.uni $L_end;
$L_high:
  bar.warp.sync 0xFFFFFFFF;
  setp.ne.u32 %p3, %r1, 16;
  @%p3 bra $L_end;
  ld.shared.u32 %r2, [s_word];
  st.global.u32 [%rd0], %r2;
$L_end:
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body, ".shared .align 4 .u32 s_word;\n"),
                         one_out(1, {32, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.verdict(), Verdict::RaceFree);
  EXPECT_EQ(r.expr("out", 0), "42");
}

// shfl.sync of one mask at two different instructions: not modeled, refused (not a deadlock).
TEST(Shfl, OneMaskAtTwoInstructionsIsRefused) {
  const std::string body = R"(
  mov.u32 %r1, %laneid;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $L_high;
  shfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xFFFFFFFF;
  ret;
$L_high:
  shfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xFFFFFFFF;
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body), one_out(1, {32, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported) << r.describe();
}

TEST(Shfl, DataDependentLaneIsRefused) {
  const std::string body = R"(
  ld.param.u64 %rd1, [p_in];
  ld.global.u32 %r1, [%rd1];
  shfl.sync.idx.b32 %r2, %r1, %r1, 31, 0xFFFFFFFF;
  ret;)";
  const auto text = kernel(".param .u64 p_out, .param .u64 p_in", body);
  Launch l = one_out(1, {32, 1, 1});
  l.arrays.push_back("in:0x200000:4:1:in");
  l.params.push_back("ptr:in");
  const auto r = run_ptx(text, l);
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "shfl.sync"));
}

// ---------------------------------------------------------------------------------------------
// vote, activemask
// ---------------------------------------------------------------------------------------------

// Lanes with tid < `threshold` vote true; out[0..4] = ballot, all, any, uni, any(!p) of lane 0.
Result run_vote(uint32_t threshold) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u32 %r9, [p_n];
  mov.u32 %r1, %laneid;
  setp.lt.u32 %p1, %r1, %r9;
  vote.sync.ballot.b32 %r2, %p1, 0xFFFFFFFF;
  vote.sync.all.pred %p2, %p1, 0xFFFFFFFF;
  vote.sync.any.pred %p3, %p1, 0xFFFFFFFF;
  vote.sync.uni.pred %p4, %p1, 0xFFFFFFFF;
  vote.sync.any.pred %p5, !%p1, 0xFFFFFFFF;
  setp.ne.u32 %p6, %r1, 0;
  @%p6 bra $L_end;
  st.global.u32 [%rd0], %r2;
  selp.u32 %r3, 1, 0, %p2;
  st.global.u32 [%rd0+4], %r3;
  selp.u32 %r4, 1, 0, %p3;
  st.global.u32 [%rd0+8], %r4;
  selp.u32 %r5, 1, 0, %p4;
  st.global.u32 [%rd0+12], %r5;
  selp.u32 %r6, 1, 0, %p5;
  st.global.u32 [%rd0+16], %r6;
$L_end:
  ret;)";
  Launch l = one_out(5, {32, 1, 1});
  l.params.push_back("int:" + std::to_string(threshold));
  return run_ptx(kernel(".param .u64 p_out, .param .u32 p_n", body), l);
}

TEST(Vote, BallotAllAnyUni) {
  {
    const auto r = run_vote(5);
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.expr("out", 0), "31");
    EXPECT_EQ(r.expr("out", 1), "0");
    EXPECT_EQ(r.expr("out", 2), "1");
    EXPECT_EQ(r.expr("out", 3), "0");
    EXPECT_EQ(r.expr("out", 4), "1");
    EXPECT_EQ(r.run->stats.warp_syncs, 5u);
  }
  {
    const auto r = run_vote(32);
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.expr("out", 0), "4294967295");
    EXPECT_EQ(r.expr("out", 1), "1");
    EXPECT_EQ(r.expr("out", 2), "1");
    EXPECT_EQ(r.expr("out", 3), "1");
    EXPECT_EQ(r.expr("out", 4), "0");
  }
  {
    const auto r = run_vote(0);
    ASSERT_EQ(r.failure(), nullptr) << r.describe();
    EXPECT_EQ(r.expr("out", 0), "0");
    EXPECT_EQ(r.expr("out", 1), "0");
    EXPECT_EQ(r.expr("out", 2), "0");
    EXPECT_EQ(r.expr("out", 3), "1");
  }
}

TEST(Vote, PartialMemberMaskInDivergentCode) {
  // Only the even lanes vote, with the member mask of the even lanes.
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %laneid;
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra $L_end;
  setp.lt.u32 %p2, %r1, 10;
  vote.sync.ballot.b32 %r3, %p2, 0x55555555;
  activemask.b32 %r4;
  vote.sync.ballot.b32 %r5, %p2, %r4;
  setp.ne.u32 %p3, %r1, 0;
  @%p3 bra $L_end;
  st.global.u32 [%rd0], %r3;
  st.global.u32 [%rd0+4], %r5;
$L_end:
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body), one_out(2, {32, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), std::to_string(0x155u)); // lanes 0, 2, 4, 6, 8
  // activemask as the member mask: the even lanes that run together.
  EXPECT_EQ(r.expr("out", 1), std::to_string(0x155u));
}

// A vote on data: the ballot is a sum of one select per member lane (disjoint bits, exact as an
// integer), any and all the disjunction and conjunction of the member lanes' predicates; lanes
// outside the member mask (here the odd ones) contribute nothing.
TEST(Vote, DataDependentPredicates) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %laneid;
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra $L_end;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  setp.gt.f32 %p2, %f1, 0f00000000;
  vote.sync.ballot.b32 %r3, %p2, 0x55555555;
  vote.sync.any.pred %p3, %p2, 0x55555555;
  vote.sync.all.pred %p4, !%p2, 0x55555555;
  selp.u32 %r4, 1, 0, %p3;
  selp.u32 %r5, 1, 0, %p4;
  setp.ne.u32 %p5, %r1, 0;
  @%p5 bra $L_end;
  st.global.u32 [%rd0], %r3;
  st.global.u32 [%rd0+4], %r4;
  st.global.u32 [%rd0+8], %r5;
$L_end:
  ret;)";
  Launch l = one_out(3, {32, 1, 1});
  l.arrays.push_back("in:0x200000:4:32:in");
  l.params.push_back("ptr:in");
  const auto r = run_ptx(kernel(".param .u64 p_out, .param .u64 p_in", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  const std::string ballot = r.expr("out", 0);
  // The even lanes' bits, each selected by its own lane's predicate, and no odd lane's.
  EXPECT_NE(ballot.find("(select (cmp.gt in[0] 0) 1 0)"), std::string::npos) << ballot;
  EXPECT_NE(ballot.find("(select (cmp.gt in[30] 0) 1073741824 0)"), std::string::npos) << ballot;
  EXPECT_EQ(ballot.find("in[1]"), std::string::npos) << ballot;
  EXPECT_EQ(ballot.find("in[31]"), std::string::npos) << ballot;
  const std::string any = r.expr("out", 1), all = r.expr("out", 2);
  EXPECT_NE(any.find("or"), std::string::npos) << any;
  EXPECT_NE(all.find("and"), std::string::npos) << all;
  EXPECT_NE(all.find("not"), std::string::npos) << all; // the negated source operand
  EXPECT_EQ(any.find("in[1]"), std::string::npos) << any;
}

// redux.sync and match.sync on lane-dependent (concrete) operands: every member lane gets the
// reduction of the members' operands; lanes outside the member mask (the odd ones) take no part.
TEST(Redux, ConcreteOperandsOfTheMemberLanes) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %laneid;
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra $L_end;
  sub.s32 %r3, 10, %r1;
  redux.sync.add.s32 %r4, %r3, 0x55555555;
  redux.sync.min.s32 %r5, %r3, 0x55555555;
  redux.sync.min.u32 %r6, %r3, 0x55555555;
  redux.sync.max.s32 %r7, %r3, 0x55555555;
  redux.sync.or.b32 %r8, %r1, 0x55555555;
  redux.sync.xor.b32 %r9, %r1, 0x55555555;
  redux.sync.and.b32 %r10, %r3, 0x55555555;
  setp.ne.u32 %p3, %r1, 2;
  @%p3 bra $L_end;
  st.global.u32 [%rd0], %r4;
  st.global.u32 [%rd0+4], %r5;
  st.global.u32 [%rd0+8], %r6;
  st.global.u32 [%rd0+12], %r7;
  st.global.u32 [%rd0+16], %r8;
  st.global.u32 [%rd0+20], %r9;
  st.global.u32 [%rd0+24], %r10;
$L_end:
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body), one_out(7, {32, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  // 10 - lane over the even lanes 0..30: 10, 8, ..., -20.
  EXPECT_EQ(r.expr("out", 0), std::to_string(static_cast<uint32_t>(-80)));
  EXPECT_EQ(r.expr("out", 1), std::to_string(static_cast<uint32_t>(-20))); // signed min
  EXPECT_EQ(r.expr("out", 2), "0"); // unsigned min: lane 10 has 0, -2 and below are large
  EXPECT_EQ(r.expr("out", 3), "10");
  EXPECT_EQ(r.expr("out", 4), "30");                                         // or of 0, 2, ..., 30
  EXPECT_EQ(r.expr("out", 5), "0");                                          // xor of the same
  EXPECT_EQ(r.expr("out", 6), std::to_string(10u & 8u & 6u & 4u & 2u & 0u)); // and: 0
}

// Operands that depend on data: a sum of the member lanes' integers, and match.any the lane's
// own bit plus one select per other member.
TEST(Redux, DataDependentOperands) {
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3];
  redux.sync.add.u32 %r3, %r2, 0x0000000f;
  match.any.sync.b32 %r4, %r2, 0x0000000f;
  match.all.sync.b32 %r5|%p2, %r2, 0x0000000f;
  selp.u32 %r6, 1, 0, %p2;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L_end;
  st.global.u32 [%rd0], %r3;
  st.global.u32 [%rd0+4], %r4;
  st.global.u32 [%rd0+8], %r5;
  st.global.u32 [%rd0+12], %r6;
$L_end:
  ret;)";
  Launch l = one_out(4, {4, 1, 1});
  l.arrays.push_back("in:0x200000:4:4:in");
  l.params.push_back("ptr:in");
  const auto r = run_ptx(kernel(".param .u64 p_out, .param .u64 p_in", body), l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  const std::string sum = r.expr("out", 0), any = r.expr("out", 1), all = r.expr("out", 2);
  for (const char* lane : {"in[0]", "in[1]", "in[2]", "in[3]"})
    EXPECT_NE(sum.find(lane), std::string::npos) << sum;
  EXPECT_NE(sum.find("iadd.32"), std::string::npos) << sum;
  EXPECT_NE(any.find("(select (icmp.eq"), std::string::npos) << any;
  EXPECT_NE(any.find(" 8 0)"), std::string::npos) << any;  // lane 3's bit
  EXPECT_NE(all.find(" 15 0)"), std::string::npos) << all; // the member mask, or 0
  EXPECT_NE(r.expr("out", 3).find("and"), std::string::npos) << r.expr("out", 3);
}

TEST(Vote, ActivemaskInATwoWarpBlock) {
  // Warp 1 has 8 lanes (block of 40): activemask as a shfl's member mask is 0xFF there, and
  // every lane of it reads lane 0 of its own warp.
  const std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %tid.x;
  activemask.b32 %r2;
  shfl.sync.idx.b32 %r3, %r1, 0, 31, %r2;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r3;
  ret;)";
  const auto r = run_ptx(kernel(".param .u64 p_out", body), one_out(40, {40, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "0");
  EXPECT_EQ(r.expr("out", 31), "0");
  EXPECT_EQ(r.expr("out", 39), "32");
}

TEST(Vote, ActivemaskValueIsRefused) {
  // Which lanes run together is the GPU scheduler's choice: the value itself (stored, added,
  // compared) is refused at the activemask, naming its reader; only a member mask is modelled.
  for (const std::string reader : {"st.global.u32 [%rd0], %r2;", "add.u32 %r3, %r2, 1;",
                                   "setp.eq.u32 %p1, %r2, -1;", "mov.u32 %r3, %r2;"}) {
    const std::string body =
        "  ld.param.u64 %rd0, [p_out];\n  activemask.b32 %r2;\n  " + reader + "\n  ret;";
    const auto text = kernel(".param .u64 p_out", body);
    const auto r = run_ptx(text, one_out(1, {32, 1, 1}));
    ASSERT_NE(r.failure(), nullptr) << reader;
    EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported) << reader;
    EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "activemask")) << reader;
    EXPECT_NE(r.failure()->message.find("is also read by"), std::string::npos)
        << r.failure()->message;
  }
}

// ---------------------------------------------------------------------------------------------
// bar.warp.sync as the synchronization of the race check
// ---------------------------------------------------------------------------------------------

// Lane 0 writes s[0]; lane 1 reads it after `sync` (an instruction or nothing).
std::string warp_handoff(const std::string& sync) {
  return kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %laneid;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L_sync;
  st.shared.u32 [s_word], 42;
$L_sync:
)" + sync + R"(
  setp.ne.u32 %p2, %r1, 1;
  @%p2 bra $L_end;
  ld.shared.u32 %r2, [s_word];
  st.global.u32 [%rd0], %r2;
$L_end:
  ret;)",
                ".shared .align 4 .u32 s_word;\n");
}

TEST(WarpSync, FullWarpSyncOrdersTheLanes) {
  const auto r = run_ptx(warp_handoff("  bar.warp.sync 0xFFFFFFFF;"), one_out(1, {32, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "42");
}

TEST(WarpSync, WithoutSyncTheLanesRace) {
  const auto text = warp_handoff("");
  const auto r = run_ptx(text, one_out(1, {32, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::DataRace);
  EXPECT_EQ(r.failure()->first->thread, 1u);
  EXPECT_EQ(r.failure()->second->thread, 0u);
  EXPECT_EQ(r.failure()->first->ptx_line, line_of(text, "ld.shared.u32"));
  EXPECT_EQ(r.failure()->second->ptx_line, line_of(text, "st.shared.u32"));
}

TEST(WarpSync, PartialMaskSyncIsNotClaimedAsARace) {
  // A sync of lanes 0 and 1 only orders them, which the race check does not model: the result
  // must not be a (possibly false) DATA_RACE; the engine answers UNSUPPORTED or RACE_FREE.
  const auto text = warp_handoff(R"(
  setp.gt.u32 %p3, %r1, 1;
  @%p3 bra $L_after;
  bar.warp.sync 3;
$L_after:)");
  const auto r = run_ptx(text, one_out(1, {32, 1, 1}));
  EXPECT_NE(r.verdict(), Verdict::DataRace) << r.describe();
  EXPECT_NE(r.verdict(), Verdict::Error) << r.describe();
}

// wmma.store.sync is a sync of the warp on both sides (docs/semantics.md, "Synchronization and
// asynchronous copies"): lane 1's plain store to element (0,0) before it is ordered with the
// collective's write of that element (by lane 0's fragment), and lane 3's read of it after the
// collective is ordered with that write. This is the pattern of the corpus's Conv2D-opt: a per-warp
// buffer written by wmma.store, read back by the lanes, and written again by the next iteration's
// wmma.store.
std::string wmma_store_handoff(bool sync_collective) {
  std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %laneid;
  mov.u32 %r2, buf;
  setp.ne.u32 %p1, %r1, 1;
  @%p1 bra $L_stored;
  mov.f32 %f9, 0f3F800000;
  st.shared.f32 [%r2], %f9;
$L_stored:
  mov.f32 %f1, 0f40000000;
  mov.f32 %f2, 0f40000000;
  mov.f32 %f3, 0f40000000;
  mov.f32 %f4, 0f40000000;
  mov.f32 %f5, 0f40000000;
  mov.f32 %f6, 0f40000000;
  mov.f32 %f7, 0f40000000;
  mov.f32 %f8, 0f40000000;
)";
  body += sync_collective ? "  wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 [%r2], {%f1, "
                            "%f2, %f3, %f4, %f5, %f6, %f7, "
                            "%f8}, 16;\n"
                          : "  setp.ne.u32 %p2, %r1, 0;\n  @%p2 bra $L_skip;\n  st.shared.f32 "
                            "[%r2], %f1;\n$L_skip:\n";
  body += R"(
  setp.ne.u32 %p3, %r1, 3;
  @%p3 bra $L_done;
  ld.shared.f32 %f10, [%r2];
  st.global.f32 [%rd0], %f10;
$L_done:
  ret;)";
  return kernel(".param .u64 p_out", body, ".shared .align 16 .f32 buf[256];\n");
}

TEST(WarpSync, WmmaStoreOrdersTheLanesOnBothSides) {
  const auto r = run_ptx(wmma_store_handoff(true), one_out(1, {32, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "2");
}

TEST(WarpSync, APlainStoreInItsPlaceRaces) {
  const auto r = run_ptx(wmma_store_handoff(false), one_out(1, {32, 1, 1}));
  EXPECT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
}

// WARP_SZ is PTX's predefined warp-size constant (nvcc emits `mov.u32 %r1, WARP_SZ;` for
// warpSize).
TEST(WarpSync, WarpSizeConstantIs32) {
  const auto r = run_ptx(kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, WARP_SZ;
  st.global.u32 [%rd0], %r1;
  ret;)"),
                         one_out(1));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "32");
}

} // namespace
} // namespace volta::etest
