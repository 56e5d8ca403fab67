// Streamed proofs (engine/entry/streamed_entry.hpp, engine/exec/grouped_launch.hpp): a grid run
// and proved a group of CTAs at a time answers what the whole grid answers. Only EQUIVALENT may
// come from the groups, and UNKNOWN for an element a group leaves undecided; races between
// groups, differences, atomics on global memory, grids the groups split differently and domain
// conditions that need another group's assumptions all end in the run of the whole grid, with
// its report, when that run fits (else the group answers: its finding, or UNKNOWN with why).
#include <functional>
#include <gtest/gtest.h>
#include <string>

#include "engine/emulate/counterexample_run.hpp"
#include "engine/entry/streamed_entry.hpp"
#include "engine/exec/grouped_launch.hpp"
#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

constexpr uint32_t kCtas = 64, kThreads = 32, kElements = kCtas * kThreads;

// out[i] = f(a[i]) for i = ctaid.x * ntid.x + tid.x; `%f1` holds a[i], `%rd5` &out[i], `%rd2`
// &out[0], `%r4` i and `%f6` b[0]; the code leaves the stored value in %f2.
std::string elementwise(std::string_view code, std::string_view index = "") {
  std::string body = R"(
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [out];
  ld.param.u64 %rd7, [b];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  cvta.to.global.u64 %rd7, %rd7;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
)";
  body += index;
  body += R"(
  mul.wide.s32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  ld.global.f32 %f6, [%rd7];
  setp.eq.s32 %p1, %r4, 2047;
  setp.eq.s32 %p2, %r4, 0;
)";
  body += code;
  body += "\n  ret;";
  return kernel(".param .u64 a, .param .u64 b, .param .u64 out", body);
}

// The index of elementwise() with the CTAs in reverse order: CTA c writes what CTA 63 - c does
// in the plain kernel (the groups of the two grids do not split alike).
constexpr std::string_view kReversedCtas = "  sub.s32 %r5, 63, %r1;\n"
                                           "  mad.lo.s32 %r4, %r5, %r2, %r3;\n";

const std::string kTwice = elementwise("  mul.f32 %f2, %f1, 0f40000000;\n"
                                       "  st.global.f32 [%rd5], %f2;");
const std::string kSum = elementwise("  add.f32 %f2, %f1, %f1;\n"
                                     "  st.global.f32 [%rd5], %f2;");

// Two files and an entry comparing them over the whole grid of 64 CTAs of 32 threads.
struct Pair {
  TempPtx ref, opt;
  launch::ManifestEntry entry;
  Pair(const std::string& ref_text, const std::string& opt_text,
       std::vector<std::string> extra_arrays = {})
      : ref(ref_text), opt(opt_text) {
    Launch l;
    l.block = {kThreads, 1, 1};
    l.grid = {kCtas, 1, 1};
    l.all_ctas = true;
    l.arrays = {"a:0x100000:4:2048:in", "b:0x200000:4:1:in", "out:0x300000:4:2048:out"};
    l.arrays.insert(l.arrays.end(), extra_arrays.begin(), extra_arrays.end());
    l.params = {"ptr:a", "ptr:b", "ptr:out"};
    entry.name = "pair";
    entry.reference = make_config(l);
    entry.reference.ptx_path = ref.path();
    entry.optimized = make_config(l);
    entry.optimized.ptx_path = opt.path();
    entry.check_arrays = {"out"};
  }
};

entry::EntryResult prove(const launch::ManifestEntry& e, bool stream,
                         const std::function<void(entry::ProveOptions&)>& tweak = {}) {
  exec::KernelCache cache;
  entry::ProveOptions options;
  options.stream = stream;
  options.stream_min_ctas = 4; // 16 groups of 4 CTAs, whatever the machine's cores
  if (tweak)
    tweak(options);
  return entry::prove_equivalence_entry(e, cache, options);
}

// A whole-grid rerun that cannot fit: one byte allowed for its store.
void no_room_to_rerun(entry::ProveOptions& options) {
  options.stream_rerun_bytes = 1;
}

bool streamed(const entry::EntryResult& r) {
  return r.detail.find("groups of CTAs") != std::string::npos;
}

// The streamed result of `e`, and the whole grid's, give the same verdict; returns the first.
entry::EntryResult same_as_whole_grid(const launch::ManifestEntry& e) {
  const auto grouped = prove(e, true);
  const auto whole = prove(e, false);
  EXPECT_EQ(grouped.verdict, whole.verdict) << grouped.detail << "\n" << whole.detail;
  EXPECT_FALSE(streamed(whole)) << whole.detail;
  return grouped;
}

TEST(StreamedEntry, GroupCountIsTheLargestCommonDivisorThatKeepsGroupsFull) {
  EXPECT_EQ(entry::group_count(256, 256, 8), 32u);
  EXPECT_EQ(entry::group_count(64, 128, 8), 8u); // gcd 64, the smaller grid has 64 CTAs
  EXPECT_EQ(entry::group_count(12, 18, 1), 6u);  // gcd 6
  EXPECT_EQ(entry::group_count(1, 256, 1), 1u);  // a one-CTA reference: no groups
  EXPECT_EQ(entry::group_count(7, 7, 8), 1u);    // fewer CTAs than a group holds
  EXPECT_EQ(entry::group_count(1024, 1024, 8), 128u);
}

TEST(StreamedEntry, EquivalentGridIsProvedGroupByGroup) {
  Pair p(kTwice, kSum);
  const auto r = same_as_whole_grid(p.entry);
  ASSERT_EQ(r.verdict, Verdict::Equivalent) << r.detail;
  EXPECT_TRUE(streamed(r)) << r.detail;
  EXPECT_EQ(r.elements.total, kElements);
  // The template is proved in the first group; the later groups find it proved (template
  // reuse, not the user's proof cache).
  EXPECT_EQ(r.elements.direct, 1u);
  EXPECT_EQ(r.elements.reused, kElements - 1);
  EXPECT_EQ(r.elements.cached, 0u);
  EXPECT_EQ(r.cache_hits, 0u);
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].stats.ctas, kCtas);
  EXPECT_EQ(r.kernels[1].stats.ctas, kCtas);
  EXPECT_EQ(r.kernels[0].stats.instructions, r.kernels[1].stats.instructions);
  ASSERT_EQ(r.output_types.size(), 1u);
  EXPECT_EQ(r.output_types[0].reference_stores, "f32");
}

TEST(StreamedEntry, DifferenceInTheLastGroupIsReportedAsOverTheWholeGrid) {
  Pair p(kTwice, elementwise("  add.f32 %f2, %f1, %f1;\n"
                             "  @%p1 add.f32 %f2, %f2, 0f3F800000;\n"
                             "  st.global.f32 [%rd5], %f2;"));
  const auto r = same_as_whole_grid(p.entry);
  ASSERT_EQ(r.verdict, Verdict::NotEquivalent) << r.detail;
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->element, "out[2047]");
  EXPECT_EQ(r.detail, prove(p.entry, false).detail);
}

// sin²x + cos²x against 1: true over the reals, beyond the rules and (here) without Z3, so the
// first group's first element is left undecided. The groups end the entry UNKNOWN there, naming
// the group: the whole grid holds the same element, and rerunning it would only repeat the work
// in a store the size of the grid.
TEST(StreamedEntry, AnUndecidedElementEndsTheGroupsWithoutAWholeGridRun) {
  Pair p(elementwise("  sin.approx.f32 %f3, %f1;\n"
                     "  cos.approx.f32 %f4, %f1;\n"
                     "  mul.f32 %f5, %f4, %f4;\n"
                     "  fma.rn.f32 %f2, %f3, %f3, %f5;\n"
                     "  st.global.f32 [%rd5], %f2;"),
         elementwise("  mov.f32 %f2, 0f3F800000;\n"
                     "  st.global.f32 [%rd5], %f2;"));
  const auto r = prove(p.entry, true);
  ASSERT_EQ(r.verdict, Verdict::Unknown) << r.detail;
  EXPECT_NE(r.detail.find("(in group 1 of 16 of CTAs"), std::string::npos) << r.detail;
  // Only the first group ran.
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].stats.ctas, 4u);
}

// A reference defined on no input (0 * the square root of -1 - a*a, + 1: equal to the optimized
// kernel's 1 over the reals) is so in the first group already: the groups end UNKNOWN there,
// without a whole-grid run.
TEST(StreamedEntry, AVacuousReferenceEndsTheGroupsWithoutAWholeGridRun) {
  Pair p(elementwise("  mul.f32 %f3, %f1, %f1;\n"
                     "  add.f32 %f3, %f3, 0f3F800000;\n"
                     "  neg.f32 %f3, %f3;\n"
                     "  sqrt.rn.f32 %f4, %f3;\n"
                     "  mul.f32 %f4, %f4, 0f00000000;\n"
                     "  add.f32 %f2, %f4, 0f3F800000;\n"
                     "  st.global.f32 [%rd5], %f2;"),
         elementwise("  mov.f32 %f2, 0f3F800000;\n"
                     "  st.global.f32 [%rd5], %f2;"));
  const auto r = prove(p.entry, true);
  ASSERT_EQ(r.verdict, Verdict::Unknown) << r.detail;
  EXPECT_NE(r.detail.find("undefined on every input"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("(in group 1 of 16 of CTAs"), std::string::npos) << r.detail;
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].stats.ctas, 4u); // only the first group ran
}

// Issue 34: a group the groups cannot conclude must not fall back to a whole-grid run that
// cannot fit. A difference in the last group is decided under that group's assumptions only, so
// without the whole grid it ends UNKNOWN, naming the group and why it was not rerun; never
// EQUIVALENT, and with no counterexample that the whole grid did not confirm.
// A difference with a confirmed point in a group whose grid cannot be rerun is the whole grid's
// verdict: the whole grid decides that element the same way and stops there, before any domain
// condition.
TEST(StreamedEntry, ADifferenceWhoseGridCannotBeRerunIsReportedFromItsGroup) {
  Pair p(kTwice, elementwise("  add.f32 %f2, %f1, %f1;\n"
                             "  @%p1 add.f32 %f2, %f2, 0f3F800000;\n"
                             "  st.global.f32 [%rd5], %f2;"));
  const auto r = prove(p.entry, true, no_room_to_rerun);
  ASSERT_EQ(r.verdict, Verdict::NotEquivalent) << r.detail;
  EXPECT_NE(r.detail.find("in group 16 of 16 of CTAs"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("the whole grid is not rerun"), std::string::npos) << r.detail;
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->element, "out[2047]");
  // Not located: that would run both whole grids again.
  ASSERT_TRUE(r.counterexample->location.has_value());
  EXPECT_NE(r.counterexample->location->note.find("does not fit"), std::string::npos);
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].stats.ctas, kCtas); // every group once, no whole-grid run after them
  // With room, the whole grid runs again and reports the difference (the test above).
  EXPECT_EQ(prove(p.entry, true).verdict, Verdict::NotEquivalent);
}

// The last group's element differs only where a[0] <= 0, where the reference's lg2(a[0]) in the
// first group is undefined: the group's point satisfies its own assumptions of the reference
// (none), not the first group's. Without a whole-grid rerun that difference is no counterexample
// (the reference's run there divides by zero): UNKNOWN, never NOT_EQUIVALENT. With room, the
// whole grid's assumptions decide it EQUIVALENT.
TEST(StreamedEntry, ADifferenceOutsideAnotherGroupsDomainIsNoCounterexample) {
  const std::string ref = elementwise("  mul.f32 %f2, %f1, 0f40000000;\n"
                                      "  @%p2 lg2.approx.f32 %f2, %f1;\n"
                                      "  st.global.f32 [%rd5], %f2;");
  // At i = 2047, + (a[0] <= 0 ? 1 : 0), a[0] read at a's base (%rd1).
  const std::string opt = elementwise("  mul.f32 %f2, %f1, 0f40000000;\n"
                                      "  @%p2 lg2.approx.f32 %f2, %f1;\n"
                                      "  ld.global.f32 %f7, [%rd1];\n"
                                      "  setp.le.f32 %p3, %f7, 0f00000000;\n"
                                      "  selp.f32 %f8, 0f3F800000, 0f00000000, %p3;\n"
                                      "  @%p1 add.f32 %f2, %f2, %f8;\n"
                                      "  st.global.f32 [%rd5], %f2;");
  Pair p(ref, opt);
  const auto r = prove(p.entry, true, [](entry::ProveOptions& o) {
    no_room_to_rerun(o);
    o.execute_counterexample = emulate::execute_counterexample;
  });
  EXPECT_EQ(r.verdict, Verdict::Unknown) << r.detail;
  EXPECT_NE(r.detail.find("the reference's run at this input"), std::string::npos) << r.detail;
  EXPECT_EQ(prove(p.entry, true).verdict, Verdict::Equivalent);
  EXPECT_EQ(prove(p.entry, false).verdict, Verdict::Equivalent);
}

// An out-of-bounds store by the last CTA is a finding of its group's CTAs, which run as in the
// whole grid: reported as itself, naming the group, when the grid cannot be rerun.
TEST(StreamedEntry, AFindingWhoseGridCannotBeRerunIsReportedFromItsGroup) {
  const std::string oob = elementwise("  add.f32 %f2, %f1, %f1;\n"
                                      "  st.global.f32 [%rd5], %f2;\n"
                                      "  @%p1 st.global.f32 [%rd5+4], %f2;");
  Pair p(kTwice, oob);
  const auto whole = prove(p.entry, false);
  ASSERT_EQ(whole.verdict, Verdict::OutOfBounds) << whole.detail;
  const auto r = prove(p.entry, true, no_room_to_rerun);
  ASSERT_EQ(r.verdict, Verdict::OutOfBounds) << r.detail;
  EXPECT_NE(r.detail.find("optimized kernel: "), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("in group 16 of 16 of CTAs"), std::string::npos) << r.detail;
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure_kernel, "optimized");
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[1].stats.ctas, kCtas);
}

// The instruction budget counts over all groups: a group that reaches it ends the entry there,
// UNKNOWN, without a whole-grid run that would stop at the same budget after running it all
// again (whatever room there is).
TEST(StreamedEntry, TheInstructionBudgetEndsTheGroupsWithoutAWholeGridRun) {
  Pair p(kTwice, kSum);
  const auto r = prove(p.entry, true, [](entry::ProveOptions& o) {
    o.run.max_instructions = kElements * 10; // a few groups' worth of the ~25 per thread
  });
  ASSERT_EQ(r.verdict, Verdict::Unknown) << r.detail;
  ASSERT_TRUE(r.failure.has_value()) << r.detail;
  EXPECT_EQ(r.failure->category, exec::FailureCategory::InstructionBudget);
  EXPECT_NE(r.detail.find("in group "), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("same limit"), std::string::npos) << r.detail;
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_LT(r.kernels[0].stats.ctas, kCtas); // stopped among the groups, no rerun after them
}

// The last CTA also writes out[0], which CTA 0 wrote in the first group, with another value
// (3 a[0] where CTA 0 stored 2 a[0]): the groups must not take out[0] as final, and the write is
// a race.
TEST(StreamedEntry, WriteByALaterGroupIsARace) {
  Pair p(kTwice, elementwise("  add.f32 %f2, %f1, %f1;\n"
                             "  st.global.f32 [%rd5], %f2;\n"
                             "  @%p1 ld.global.f32 %f3, [%rd1];\n"
                             "  @%p1 mul.f32 %f3, %f3, 0f40400000;\n"
                             "  @%p1 st.global.f32 [%rd2], %f3;"));
  const auto r = same_as_whole_grid(p.entry);
  EXPECT_EQ(r.verdict, Verdict::DataRace) << r.detail;
}

// The same with the very value out[0] holds (a[0] + a[0], one term): stores of provably equal
// values are no race under the default rule (docs/semantics.md, "Stores of provably equal
// values"), and the groups, whose stores live in stores of their own, agree with the whole grid.
TEST(StreamedEntry, EqualWriteByALaterGroupIsNoRace) {
  Pair p(kTwice, elementwise("  add.f32 %f2, %f1, %f1;\n"
                             "  st.global.f32 [%rd5], %f2;\n"
                             "  @%p1 ld.global.f32 %f3, [%rd1];\n"
                             "  @%p1 add.f32 %f3, %f3, %f3;\n"
                             "  @%p1 st.global.f32 [%rd2], %f3;"));
  const auto r = same_as_whole_grid(p.entry);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.detail;
}

// The last CTA reads out[0], written by CTA 0 in the first group: a race, not the
// uninitialized value the cells of a later group start with.
TEST(StreamedEntry, ReadOfAnEarlierGroupsWriteIsARace) {
  Pair p(kTwice, elementwise("  add.f32 %f2, %f1, %f1;\n"
                             "  @%p1 ld.global.f32 %f3, [%rd2];\n"
                             "  @%p1 sub.f32 %f3, %f3, %f3;\n"
                             "  @%p1 add.f32 %f2, %f2, %f3;\n"
                             "  st.global.f32 [%rd5], %f2;"));
  const auto r = same_as_whole_grid(p.entry);
  EXPECT_EQ(r.verdict, Verdict::DataRace) << r.detail;
}

// Atomics combine values of every CTA: such a kernel is proved over the whole grid.
TEST(StreamedEntry, AtomicsOnGlobalMemoryAreProvedOverTheWholeGrid) {
  // out[2048], past the elementwise part, holds the sum of a, added up by every thread.
  Pair p(elementwise("  mul.f32 %f2, %f1, 0f40000000;\n"
                     "  st.global.f32 [%rd5], %f2;\n"
                     "  red.global.add.f32 [%rd2+8192], %f1;"),
         elementwise("  add.f32 %f2, %f1, %f1;\n"
                     "  st.global.f32 [%rd5], %f2;\n"
                     "  red.global.add.f32 [%rd2+8192], %f1;"));
  for (auto* c : {&p.entry.reference, &p.entry.optimized})
    c->arrays[2] = array("out:0x300000:4:2049:zero");
  const auto r = same_as_whole_grid(p.entry);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.detail;
  EXPECT_FALSE(streamed(r)) << r.detail;
  EXPECT_EQ(r.elements.total, kElements + 1);
}

// The optimized kernel walks the CTAs backwards: its first group writes the reference's last
// elements, so no group's elements are both kernels' and the whole grid is proved at once.
TEST(StreamedEntry, GridsTheGroupsSplitDifferentlyAreProvedWhole) {
  Pair p(kTwice, elementwise("  add.f32 %f2, %f1, %f1;\n"
                             "  st.global.f32 [%rd5], %f2;",
                             kReversedCtas));
  const auto r = same_as_whole_grid(p.entry);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.detail;
  EXPECT_FALSE(streamed(r)) << r.detail;
  EXPECT_EQ(r.elements.total, kElements);
}

// The same grids where the whole grid cannot be rerun: the reference (the cheaper kernel by
// the first group's instructions; here as cheap) runs its whole grid in every group, cut to the
// elements the optimized kernel's group wrote, and the groups' elements cover it.
TEST(StreamedEntry, GridsTheGroupsSplitDifferentlyAreAnchoredWhereTheGridCannotBeRerun) {
  Pair p(kTwice, elementwise("  add.f32 %f2, %f1, %f1;\n"
                             "  st.global.f32 [%rd5], %f2;",
                             kReversedCtas));
  const auto r = prove(p.entry, true, no_room_to_rerun);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.detail;
  EXPECT_NE(r.detail.find("each against the reference kernel's whole grid"), std::string::npos)
      << r.detail;
  EXPECT_EQ(r.elements.total, kElements);
}

TEST(StreamedEntry, AnEarlierDifferenceWaitsForTheLaterGroupsFindings) {
  // Element 0 differs (group 1) and the last CTA stores out of bounds (group 16): the whole
  // grid reports the finding, and so do the groups.
  Pair p(kTwice, elementwise("  add.f32 %f2, %f1, %f1;\n"
                             "  @%p2 add.f32 %f2, %f2, 0f3F800000;\n"
                             "  st.global.f32 [%rd5], %f2;\n"
                             "  @%p1 st.global.f32 [%rd5+4], %f2;"));
  ASSERT_EQ(prove(p.entry, false).verdict, Verdict::OutOfBounds);
  const auto r = prove(p.entry, true, no_room_to_rerun);
  EXPECT_EQ(r.verdict, Verdict::OutOfBounds) << r.detail;
  EXPECT_NE(r.detail.find("in group 16 of 16 of CTAs"), std::string::npos) << r.detail;
}

TEST(StreamedEntry, AnchoredGroupsFindADifferenceInALaterGroup) {
  // The reversed kernel is wrong at element 2047 (the reference's last group, the optimized
  // kernel's first): found in the first group, with its point.
  Pair p(kTwice, elementwise("  add.f32 %f2, %f1, %f1;\n"
                             "  @%p1 add.f32 %f2, %f2, 0f3F800000;\n"
                             "  st.global.f32 [%rd5], %f2;",
                             kReversedCtas));
  const auto r = prove(p.entry, true, no_room_to_rerun);
  EXPECT_EQ(r.verdict, Verdict::NotEquivalent) << r.detail;
  EXPECT_NE(r.detail.find("in group 1 of 16 of CTAs"), std::string::npos) << r.detail;
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_EQ(r.counterexample->element, "out[2047]");
}

TEST(StreamedEntry, AFindingOfTheAnchorsWholeGridIsReportedAsItIs) {
  // The reference (the anchor: fewer instructions in the first group) stores out of bounds in
  // its last CTA: found in its whole-grid run, reported without a whole-grid rerun of both.
  Pair p(elementwise("  mul.f32 %f2, %f1, 0f40000000;\n"
                     "  st.global.f32 [%rd5], %f2;\n"
                     "  @%p1 st.global.f32 [%rd5+4], %f2;"),
         elementwise("  add.f32 %f2, %f1, %f1;\n"
                     "  st.global.f32 [%rd5], %f2;",
                     kReversedCtas));
  const auto r = prove(p.entry, true, no_room_to_rerun);
  EXPECT_EQ(r.verdict, Verdict::OutOfBounds) << r.detail;
  EXPECT_NE(r.detail.find("reference kernel: "), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("in its whole grid, run as the groups' anchor"), std::string::npos)
      << r.detail;
}

TEST(StreamedEntry, AnchoredGroupsMustCoverTheAnchorsElements) {
  // The optimized kernel (reversed) skips element 5 (in its last group): every group agrees on
  // what it wrote, but the groups miss an element the reference writes.
  Pair p(kTwice, elementwise("  add.f32 %f2, %f1, %f1;\n"
                             "  setp.eq.s32 %p3, %r4, 5;\n"
                             "  @%p3 ret;\n"
                             "  st.global.f32 [%rd5], %f2;",
                             kReversedCtas));
  const auto r = prove(p.entry, true, no_room_to_rerun);
  EXPECT_EQ(r.verdict, Verdict::Unknown) << r.detail;
  EXPECT_NE(r.detail.find("groups of CTAs wrote other elements than its whole grid's reference"),
            std::string::npos)
      << r.detail;
  const auto whole = prove(p.entry, false);
  EXPECT_EQ(whole.verdict, Verdict::NotEquivalent) << whole.detail;
}

// The optimized kernel's last element divides by b[0]; only the reference's first element
// (another group) divides by it too. Within the last group nothing assumes b[0] != 0; over the
// whole grid the reference's division does, and the entry is EQUIVALENT.
TEST(StreamedEntry, DomainConditionsSeeTheWholeGridsAssumptions) {
  Pair p(elementwise("  mul.f32 %f2, %f1, 0f40000000;\n"
                     "  @%p2 mul.f32 %f2, %f2, %f6;\n"
                     "  @%p2 div.rn.f32 %f2, %f2, %f6;\n"
                     "  st.global.f32 [%rd5], %f2;"),
         elementwise("  add.f32 %f2, %f1, %f1;\n"
                     "  @%p1 mul.f32 %f2, %f2, %f6;\n"
                     "  @%p1 div.rn.f32 %f2, %f2, %f6;\n"
                     "  st.global.f32 [%rd5], %f2;"));
  const auto r = same_as_whole_grid(p.entry);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << r.detail;
  EXPECT_FALSE(streamed(r)) << r.detail;
}

entry::EntryResult check(const launch::KernelConfig& config, bool stream) {
  exec::KernelCache cache;
  entry::CheckOptions options;
  options.stream = stream;
  launch::ManifestEntry e;
  e.name = "check";
  e.kind = launch::EntryKind::RaceCheck;
  e.kernel = config;
  return entry::check_race_entry(e, cache, options);
}

// A race check over a whole grid of 64 CTAs: group by group (8 CTAs or 4 a core), or the whole
// grid when a group finds anything, with the same verdict either way.
TEST(StreamedRaceCheck, RaceFreeGridIsCheckedGroupByGroup) {
  Pair p(kSum, kSum);
  const auto grouped = check(p.entry.reference, true);
  const auto whole = check(p.entry.reference, false);
  EXPECT_EQ(grouped.verdict, Verdict::RaceFree) << grouped.detail;
  EXPECT_EQ(whole.verdict, Verdict::RaceFree) << whole.detail;
  EXPECT_FALSE(streamed(whole));
  ASSERT_EQ(grouped.kernels.size(), 1u);
  EXPECT_EQ(grouped.kernels[0].stats.ctas, kCtas);
  EXPECT_EQ(grouped.kernels[0].stats.instructions, whole.kernels[0].stats.instructions);
  if (entry::group_count(kCtas, kCtas, entry::min_ctas_per_group(0)) > 1) {
    EXPECT_NE(grouped.detail.find("groups of CTAs"), std::string::npos) << grouped.detail;
  }
}

TEST(StreamedRaceCheck, RaceBetweenTheFirstAndTheLastCtaIsReportedAsOverTheWholeGrid) {
  Pair p(kSum, elementwise("  add.f32 %f2, %f1, %f1;\n"
                           "  st.global.f32 [%rd5], %f2;\n"
                           "  @%p1 st.global.f32 [%rd2], %f2;"));
  const auto grouped = check(p.entry.optimized, true);
  const auto whole = check(p.entry.optimized, false);
  EXPECT_EQ(grouped.verdict, Verdict::DataRace) << grouped.detail;
  EXPECT_EQ(grouped.detail, whole.detail);
}

// Global memory starts over in each group, the race shadow does not.
TEST(GroupedLaunch, ValuesStartOverAndTheShadowStays) {
  const std::string racy = elementwise("  add.f32 %f2, %f1, %f1;\n"
                                       "  st.global.f32 [%rd5], %f2;\n"
                                       "  @%p1 st.global.f32 [%rd2], %f2;");
  TempPtx file(racy);
  auto loaded = exec::load_kernel(file.path(), "k");
  ASSERT_TRUE(loaded.kernel);
  Pair p(racy, racy);
  const launch::KernelConfig& config = p.entry.reference;
  ASSERT_EQ(exec::why_not_groupable(loaded.kernel->program, config, {}), "");
  exec::GroupedLaunch launch(loaded.kernel->program, config, {});
  {
    symbolic::ExprStore store;
    const exec::KernelRun first = launch.run_group(store, 0, 32);
    ASSERT_FALSE(first.failure.has_value()) << first.failure->message;
    ASSERT_EQ(first.outputs.size(), 1u);
    EXPECT_EQ(first.outputs[0].elements.size(), 32u * kThreads);
  }
  symbolic::ExprStore store;
  const exec::KernelRun second = launch.run_group(store, 32, 64);
  ASSERT_TRUE(second.failure.has_value());
  EXPECT_EQ(second.failure->verdict, Verdict::DataRace) << second.failure->message;
  ASSERT_TRUE(second.failure->second.has_value());
  EXPECT_EQ(second.failure->second->cta, 0u); // the write of the first group
}

TEST(GroupedLaunch, KernelsThatCannotRunInGroups) {
  Pair p(kTwice, kTwice);
  TempPtx file(elementwise("  atom.global.add.f32 %f2, [%rd7], %f1;\n"
                           "  st.global.f32 [%rd5], %f2;"));
  auto atomic = exec::load_kernel(file.path(), "k");
  ASSERT_TRUE(atomic.kernel);
  EXPECT_EQ(exec::why_not_groupable(atomic.kernel->program, p.entry.reference, {}),
            "it has atomics on global memory");
  TempPtx plain(kTwice);
  auto loaded = exec::load_kernel(plain.path(), "k");
  ASSERT_TRUE(loaded.kernel);
  exec::RunOptions no_races;
  no_races.check_races = false;
  EXPECT_EQ(exec::why_not_groupable(loaded.kernel->program, p.entry.reference, no_races),
            "races are not checked");
  launch::KernelConfig first_only = p.entry.reference;
  first_only.ctas = launch::CtaMode::First;
  EXPECT_EQ(exec::why_not_groupable(loaded.kernel->program, first_only, {}), "only CTA 0 runs");
}

} // namespace
} // namespace volta::etest
