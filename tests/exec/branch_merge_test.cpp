// Branches on data merged with select (engine/exec/exec_branch_merge.cpp; docs/semantics.md,
// "Branches on data"): the layouts nvcc emits for if/else, jumps that leave a side for a point
// after the join or go back to it, and the shapes that must stay refused (a side that touches
// memory, a side that returns to the branch, a loop of jumps).
#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

bool contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

// One thread: v = in[0]; the code under test computes %f2 from %f1; out[0] = %f2.
Result run_on_input(std::string_view code) {
  std::string body = R"(
  ld.param.u64 %rd0, [p_out];
  ld.param.u64 %rd1, [p_in];
  ld.global.f32 %f1, [%rd1];
  setp.gt.f32 %p1, %f1, 0f00000000;
)";
  body += code;
  body += R"(
  st.global.f32 [%rd0], %f2;
  ret;)";
  Launch l = one_out(1);
  l.arrays.push_back("in:0x200000:4:1:in");
  l.params.push_back("ptr:in");
  return run_ptx(kernel(".param .u64 p_out, .param .u64 p_in", body), l);
}

uint64_t merges(const Result& r) {
  const auto it = r.run->stats.idioms.find("branch on data (both sides merged with select)");
  return it == r.run->stats.idioms.end() ? 0 : it->second;
}

TEST(BranchMerge, NvccIfElseWithAJumpAtTheEndOfEachSide) {
  // if (v > 0) y = 2v; else y = v + 1; as nvcc lays it out.
  const auto r = run_on_input(R"(
  @%p1 bra $L_then;
  bra.uni $L_else;
$L_then:
  add.f32 %f2, %f1, %f1;
  bra.uni $L_join;
$L_else:
  add.f32 %f2, %f1, 0f3F800000;
$L_join:
)");
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "(select (cmp.gt in[0] 0) (+ in[0] in[0]) (+ in[0] 1))");
  EXPECT_EQ(merges(r), 1u);
}

TEST(BranchMerge, ElseSideEndsInAJumpOverTheThenSide) {
  const auto r = run_on_input(R"(
  @%p1 bra $L_then;
  add.f32 %f2, %f1, 0f3F800000;
  bra.uni $L_join;
$L_then:
  add.f32 %f2, %f1, %f1;
$L_join:
)");
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "(select (cmp.gt in[0] 0) (+ in[0] in[0]) (+ in[0] 1))");
}

// The taken side jumps past the else side's join, over an instruction the else side executes:
// the sides meet after it, and the value is the program's, not the layout's guess.
TEST(BranchMerge, AJumpPastTheJoinMeetsWhereBothPathsArrive) {
  const auto r = run_on_input(R"(
  @%p1 bra $L_then;
  bra.uni $L_else;
$L_then:
  add.f32 %f2, %f1, %f1;
  bra.uni $L_past;
$L_else:
  mov.f32 %f2, %f1;
$L_join:
  add.f32 %f2, %f2, 0f3F800000;
$L_past:
)");
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "(select (cmp.gt in[0] 0) (+ in[0] in[0]) (+ in[0] 1))");
}

// The taken side placed after the join, ending in a backward jump to it.
TEST(BranchMerge, ASideThatJumpsBackToTheJoin) {
  const auto r = run_on_input(R"(
  mov.f32 %f2, %f1;
  @%p1 bra $L_then;
$L_join:
  bra.uni $L_end;
$L_then:
  add.f32 %f2, %f1, %f1;
  bra.uni $L_join;
$L_end:
)");
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "(select (cmp.gt in[0] 0) (+ in[0] in[0]) in[0])");
}

// A side that jumps back before the branch makes a loop on data: refused, naming where each
// side stops.
TEST(BranchMerge, ASideThatReturnsToTheBranchIsALoopOnData) {
  const auto r = run_on_input(R"(
  mov.f32 %f2, %f1;
$L_loop:
  setp.gt.f32 %p2, %f2, 0f3F800000;
  @%p2 bra $L_halve;
  bra.uni $L_end;
$L_halve:
  mul.f32 %f2, %f2, 0f3F000000;
  bra.uni $L_loop;
$L_end:
)");
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  EXPECT_TRUE(contains(r.failure()->message, "do not meet")) << r.failure()->message;
}

TEST(BranchMerge, ABackwardBranchOnDataIsRefused) {
  const auto r = run_on_input(R"(
  mov.f32 %f2, %f1;
$L_loop:
  mul.f32 %f2, %f2, 0f3F000000;
  setp.gt.f32 %p2, %f2, 0f3F800000;
  @%p2 bra $L_loop;
)");
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  EXPECT_TRUE(contains(r.failure()->message, "backward branch on data")) << r.failure()->message;
}

// A store in one side: the sides do not meet before it, whichever layout.
TEST(BranchMerge, AStoreInASideIsNeverMerged) {
  const auto r = run_on_input(R"(
  @%p1 bra $L_then;
  bra.uni $L_else;
$L_then:
  st.global.f32 [%rd0], %f1;
  add.f32 %f2, %f1, %f1;
  bra.uni $L_join;
$L_else:
  mov.f32 %f2, %f1;
$L_join:
)");
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  EXPECT_TRUE(contains(r.failure()->message, "stops at 'st.global.f32")) << r.failure()->message;
}

// Both sides reach the same store: that store is the join, and the merge is exact.
TEST(BranchMerge, BothSidesReachingOneStoreMeetThere) {
  const auto r = run_on_input(R"(
  @%p1 bra $L_then;
  mov.f32 %f2, %f1;
  bra.uni $L_store;
$L_then:
  add.f32 %f2, %f1, %f1;
$L_store:
)");
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "(select (cmp.gt in[0] 0) (+ in[0] in[0]) in[0])");
}

// A jump to itself in a side (an endless loop) is walked no further than the side's limit.
TEST(BranchMerge, AnEndlessJumpInASideIsRefused) {
  const auto r = run_on_input(R"(
  @%p1 bra $L_then;
  mov.f32 %f2, %f1;
  bra.uni $L_join;
$L_then:
  bra.uni $L_then;
$L_join:
)");
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  EXPECT_TRUE(contains(r.failure()->message, "runs past 512 instructions")) << r.failure()->message;
}

// A guarded branch inside a side (a nested if) is not merged.
TEST(BranchMerge, ANestedBranchInASideIsRefused) {
  const auto r = run_on_input(R"(
  @%p1 bra $L_then;
  mov.f32 %f2, %f1;
  bra.uni $L_join;
$L_then:
  setp.gt.f32 %p2, %f1, 0f3F800000;
  @%p2 bra $L_join;
  add.f32 %f2, %f1, %f1;
$L_join:
)");
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
}

} // namespace
} // namespace volta::etest
