// The emulator cross-check end to end on kernels of our own (examples/kernels/soundness/c22_*):
// pairs that agree on every ordinary input and differ only on special bit patterns of an
// integer-typed input. The cross-check is called directly with a claimed EQUIVALENT — it must
// not matter what the prover says about these pairs — and then through the entry's hook, where
// a contradiction becomes INCONSISTENT, a failing exit status, and the reports' words.
#include <bit>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sstream>
#include <thread>

#include "engine/emulate/cross_check_run.hpp"
#include "engine/emulate/edge_inputs.hpp"
#include "engine/entry/cross_check_verdict.hpp"
#include "engine/entry/equivalence_entry.hpp"
#include "engine/exec/run_kernel.hpp"
#include "engine/exit_status.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/report/report_json.hpp"
#include "engine/report/result_line.hpp"
#include "engine/report/sarif_report.hpp"
#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emulate {
namespace {

using emutest::soundness_entry;

struct Loaded {
  std::shared_ptr<const exec::LoadedKernel> reference, optimized;
};

Loaded load(const launch::ManifestEntry& e) {
  Loaded l{exec::load_kernel(e.reference.ptx_path, e.reference.entry).kernel,
           exec::load_kernel(e.optimized.ptx_path, e.optimized.entry).kernel};
  EXPECT_TRUE(l.reference && l.optimized) << e.name;
  return l;
}

CrossCheck run_check(const launch::ManifestEntry& e, bool real, CrossCheckOptions options = {}) {
  const Loaded l = load(e);
  CrossCheckRequest request;
  request.arrays = {{"out", real, {}}};
  return cross_check(e, l.reference->program, l.optimized->program, request, options);
}

// The index of `element` ("out[7]" -> 7).
uint64_t index_of(const std::string& element) {
  return std::stoull(element.substr(element.find('[') + 1));
}

TEST(CrossCheckRun, ANaNBitPatternShowsTheGuardedPairApart) {
  const launch::ManifestEntry e = soundness_entry("c22_nan_bits_guard");
  const CrossCheck check = run_check(e, true);
  ASSERT_TRUE(check.ran) << check.skipped_reason;
  ASSERT_TRUE(check.contradiction);
  const CrossCheckContradiction& c = *check.contradiction;
  EXPECT_EQ(c.input, 0u);
  EXPECT_EQ(c.input_name, "specials");
  EXPECT_EQ(c.reference_device, "0 (f32)");
  // The input element behind it is a NaN or an infinity bit pattern of the u32 array a, which
  // the optimized kernel stores as it is.
  const uint64_t bits = edge_element_bits(0, "a", index_of(c.element), ElemType::U32);
  const float x = std::bit_cast<float>(static_cast<uint32_t>(bits));
  ASSERT_TRUE(std::isnan(x) || std::isinf(x)) << std::hex << bits;
  if (std::isnan(x)) {
    EXPECT_EQ(c.optimized_device.rfind("nan (f32, bits 0x", 0), 0u) << c.optimized_device;
    EXPECT_EQ(c.why, "a number in the reference, NaN in the optimized kernel");
  } else {
    EXPECT_EQ(c.optimized_device, x > 0 ? "inf (f32)" : "-inf (f32)");
    EXPECT_EQ(c.why, "a number in the reference, an infinity in the optimized kernel");
  }
  EXPECT_EQ(check.inputs, 1u) << "one input that shows it is enough";
}

TEST(CrossCheckRun, AnIntegerRoundedThroughF32Differs) {
  const CrossCheck check = run_check(soundness_entry("c22_int_through_f32"), false);
  ASSERT_TRUE(check.contradiction);
  const CrossCheckContradiction& c = *check.contradiction;
  EXPECT_EQ(c.why, "an integer output differs");
  // The conversion of an integer to f32 is modelled exactly: its rounding excuses nothing.
  const auto bits =
      static_cast<int32_t>(edge_element_bits(0, "a", index_of(c.element), ElemType::S32));
  EXPECT_NE(static_cast<int32_t>(static_cast<float>(bits)), bits);
  EXPECT_EQ(c.reference_device.rfind(std::to_string(bits) + " (s32", 0), 0u) << c.reference_device;
}

TEST(CrossCheckRun, AnU16ThroughF16BecomesInfinite) {
  const CrossCheck check = run_check(soundness_entry("c22_u16_through_f16"), true);
  ASSERT_TRUE(check.contradiction);
  EXPECT_EQ(check.contradiction->why,
            "a number in the reference, an infinity in the optimized kernel");
  EXPECT_EQ(check.contradiction->optimized_device, "inf (f32)");
  EXPECT_GE(edge_element_bits(0, "a", index_of(check.contradiction->element), ElemType::U16),
            65520u);
}

TEST(CrossCheckRun, AKernelAgainstItselfRunsEveryInputSet) {
  launch::ManifestEntry e = soundness_entry("c22_u16_through_f16");
  e.optimized = e.reference;
  size_t observed = 0;
  CrossCheckOptions options;
  options.observe = [&](const EmulatedPair& p) {
    EXPECT_EQ(p.input, observed++);
    ASSERT_TRUE(p.reference->find("out"));
    const ArrayContents* r = p.reference->find("out");
    const ArrayContents* o = p.optimized->find("out");
    ASSERT_TRUE(o);
    for (uint64_t i = 0; i < r->len; ++i) {
      EXPECT_EQ(r->is_written(i), o->is_written(i));
      EXPECT_EQ(r->bits(i), o->bits(i));
    }
  };
  const CrossCheck check = run_check(e, true, options);
  EXPECT_TRUE(check.ran);
  EXPECT_FALSE(check.contradiction);
  EXPECT_EQ(check.inputs, kEdgeInputSets);
  EXPECT_EQ(check.inputs_planned, kEdgeInputSets);
  EXPECT_EQ(observed, kEdgeInputSets);
  EXPECT_EQ(check.elements, 32u * kEdgeInputSets);
  EXPECT_GT(check.instructions, 0u);
  EXPECT_TRUE(check.notes.empty()) << check.notes[0];
  ASSERT_EQ(check.arrays.size(), 1u);
  EXPECT_EQ(check.arrays[0].max_abs, 0.0);
}

TEST(CrossCheckRun, TheReferenceRunsOnceForEveryCandidate) {
  // The same reference in two entries (an optimization loop's candidates; here the candidate is
  // the reference itself): the second entry takes every run from the memo.
  launch::ManifestEntry first = soundness_entry("c22_int_through_f32");
  first.reference.entry = first.optimized.entry = "c22_int_through_f32_ref";
  first.reference.ptx_path = first.optimized.ptx_path =
      std::string(VOLTA_SOURCE_DIR) + "/examples/kernels/soundness/c22_int_through_f32.ptx";
  const CrossCheck a = run_check(first, false);
  ASSERT_TRUE(a.ran) << a.skipped_reason;
  const CrossCheck again = run_check(first, false);
  EXPECT_EQ(again.reused_runs, 2 * again.inputs);
  EXPECT_EQ(again.instructions, 0u);
  EXPECT_EQ(again.elements, a.elements);
  EXPECT_FALSE(again.contradiction);
}

TEST(CrossCheckRun, ARunPastItsBudgetSkipsIt) {
  const launch::ManifestEntry e = soundness_entry("c22_nan_bits_guard");
  const Loaded l = load(e);
  CrossCheckRequest request;
  request.arrays = {{"out", true, {}}};
  request.reference_instructions = request.optimized_instructions = 100;
  CrossCheckOptions options;
  options.reuse_runs = false; // the tests above ran these kernels: the memo would answer
  options.min_instructions = 10;
  options.instruction_factor = 0.1; // 10 thread-instructions: not even one warp's worth
  const CrossCheck check =
      cross_check(e, l.reference->program, l.optimized->program, request, options);
  EXPECT_FALSE(check.ran);
  EXPECT_FALSE(check.contradiction) << "a skipped cross-check contradicts nothing";
  EXPECT_NE(check.skipped_reason.find("budget of 10 thread-instructions"), std::string::npos)
      << check.skipped_reason;
  // Cancelled before it starts: skipped too.
  std::atomic<bool> cancel{true};
  request.cancel = &cancel;
  EXPECT_EQ(cross_check(e, l.reference->program, l.optimized->program, request).skipped_reason,
            "the entry was cancelled");
}

TEST(CrossCheckRun, ATimeLimitStopsIt) {
  // A limit long past when the first set starts: the watcher stops the runs, so that at most
  // the first set is compared (the observer waits for the watcher to have looked).
  launch::ManifestEntry e = soundness_entry("c22_u16_through_f16");
  e.optimized = e.reference;
  CrossCheckOptions options;
  options.reuse_runs = false;
  options.deadline_seconds = 1e-9;
  options.observe = [](const EmulatedPair&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  };
  const CrossCheck check = run_check(e, true, options);
  EXPECT_LE(check.inputs, 1u);
  const std::string said = check.skipped_reason + (check.notes.empty() ? "" : check.notes[0]);
  EXPECT_NE(said.find("time limit of 1e-09s ran out"), std::string::npos) << said;
  EXPECT_FALSE(check.contradiction);
}

// ---- the budget, decided before anything runs, and samples of large launches

// `e` as a launch of `ctas` CTAs on both sides (every CTA run), and a request whose symbolic
// counts make the whole launch cost `over` times `budget` at the emulator's present pace.
struct LargeLaunch {
  launch::ManifestEntry entry;
  CrossCheckRequest request;
  CrossCheckOptions options;
};

LargeLaunch large_launch(launch::ManifestEntry e, uint32_t ctas, double over) {
  for (launch::KernelConfig* k : {&e.reference, &e.optimized}) {
    k->grid = {ctas, 1, 1};
    k->ctas = launch::CtaMode::All;
  }
  LargeLaunch l{std::move(e), {}, {}};
  l.request.arrays = {{"out", true, {}}};
  l.request.reference_instructions = l.request.optimized_instructions = 1'000'000'000;
  l.options.reuse_runs = false;
  l.options.budget_seconds = 2e9 / emulator_rate_now() / over;
  return l;
}

TEST(CrossCheckBudget, AWholeLaunchOverTheBudgetIsSkippedBeforeItRuns) {
  // One CTA (nothing to sample): the prediction alone skips it, with its numbers, at once.
  LargeLaunch l = large_launch(soundness_entry("c22_nan_bits_guard"), 1, 4);
  const Loaded k = load(l.entry);
  const CrossCheck check =
      cross_check(l.entry, k.reference->program, k.optimized->program, l.request, l.options);
  EXPECT_FALSE(check.ran);
  EXPECT_EQ(check.instructions, 0u) << "nothing was emulated";
  EXPECT_NE(check.skipped_reason.find("1000000000 + 1000000000 thread-instructions"),
            std::string::npos)
      << check.skipped_reason;
  EXPECT_NE(check.skipped_reason.find("does not fit the cross-check's budget"), std::string::npos)
      << check.skipped_reason;
  EXPECT_LT(check.seconds, 0.5 * l.options.budget_seconds);
}

TEST(CrossCheckBudget, AKeptRunCostsNothingInThePrediction) {
  // The reference's runs are in the process-wide memo (an earlier entry of the same reference):
  // the next entry's plan counts only its optimized kernel, which fits the budget, though the
  // reference's claimed count alone is over it.
  launch::ManifestEntry same = soundness_entry("c22_u16_through_f16");
  same.optimized = same.reference;
  LargeLaunch first = large_launch(same, 1, 4);
  first.options.reuse_runs = true;
  first.options.budget_seconds = 0; // no budget: every set runs and is kept
  const Loaded k1 = load(first.entry);
  const CrossCheck kept = cross_check(first.entry, k1.reference->program, k1.optimized->program,
                                      first.request, first.options);
  ASSERT_TRUE(kept.ran) << kept.skipped_reason;

  LargeLaunch next = large_launch(soundness_entry("c22_u16_through_f16"), 1, 4);
  next.options.reuse_runs = true;
  next.request.optimized_instructions = 1000; // the optimized kernel: cheap
  const Loaded k2 = load(next.entry);
  const CrossCheck check = cross_check(next.entry, k2.reference->program, k2.optimized->program,
                                       next.request, next.options);
  ASSERT_TRUE(check.ran) << check.skipped_reason;
  EXPECT_GE(check.reused_runs, 1u);
  EXPECT_TRUE(check.contradiction); // the pair differs (its f16 rounding): compared, so shown

  next.options.reuse_runs = false; // without the memo the same plan does not fit
  const CrossCheck fresh = cross_check(next.entry, k2.reference->program, k2.optimized->program,
                                       next.request, next.options);
  EXPECT_FALSE(fresh.ran);
  EXPECT_NE(fresh.skipped_reason.find("does not fit the cross-check's budget"), std::string::npos)
      << fresh.skipped_reason;
}

TEST(CrossCheckBudget, TheSetsAfterTheFirstHaveTheSmallerBudget) {
  // The specials set runs within budget_seconds; the others only within
  // further_sets_budget_seconds, which they do not fit here.
  launch::ManifestEntry same = soundness_entry("c22_u16_through_f16");
  same.optimized = same.reference;
  LargeLaunch l = large_launch(same, 1, 4);
  l.request.reference_instructions = l.request.optimized_instructions = 10'000;
  l.options.budget_seconds = 1000;
  l.options.further_sets_budget_seconds = 1e-9;
  const Loaded k = load(l.entry);
  const CrossCheck check =
      cross_check(l.entry, k.reference->program, k.optimized->program, l.request, l.options);
  ASSERT_TRUE(check.ran) << check.skipped_reason;
  EXPECT_EQ(check.inputs, 1u);
  ASSERT_FALSE(check.notes.empty());
  EXPECT_NE(check.notes[0].find("stopped after 1 of 3 input sets"), std::string::npos)
      << check.notes[0];
  l.options.further_sets_budget_seconds = 0; // the same budget for every set: all three run
  const CrossCheck all =
      cross_check(l.entry, k.reference->program, k.optimized->program, l.request, l.options);
  EXPECT_EQ(all.inputs, kEdgeInputSets);
}

TEST(CrossCheckBudget, ASampleOfTheCtasStillShowsAContradiction) {
  // 16 CTAs, the whole launch four times the budget: CTAs 0 and 15 of each kernel run, and the
  // NaN bit patterns they store still contradict the claimed EQUIVALENT.
  LargeLaunch l = large_launch(soundness_entry("c22_nan_bits_guard"), 16, 4);
  const Loaded k = load(l.entry);
  const CrossCheck check =
      cross_check(l.entry, k.reference->program, k.optimized->program, l.request, l.options);
  ASSERT_TRUE(check.ran) << check.skipped_reason;
  EXPECT_EQ(check.reference_ctas, (std::vector<uint32_t>{0, 15}));
  EXPECT_EQ(check.optimized_ctas, (std::vector<uint32_t>{0, 15}));
  ASSERT_TRUE(check.contradiction);
  EXPECT_EQ(check.contradiction->why.rfind("a number in the reference", 0), 0u);
  EXPECT_EQ(check.checked,
            fmt::format("1 input set, CTAs {{0, 15}} of 16, {} elements compared", check.elements));
}

TEST(CrossCheckBudget, ASampleOfAnAgreeingPairComparesWhatBothSamplesWrote) {
  launch::ManifestEntry e = soundness_entry("c22_u16_through_f16");
  e.optimized = e.reference;
  e.optimized.entry = e.reference.entry; // the reference against itself: never a contradiction
  LargeLaunch l = large_launch(e, 16, 4);
  const Loaded k = load(l.entry);
  const CrossCheck check =
      cross_check(l.entry, k.reference->program, k.optimized->program, l.request, l.options);
  ASSERT_TRUE(check.ran) << check.skipped_reason;
  EXPECT_FALSE(check.contradiction);
  EXPECT_EQ(check.inputs, kEdgeInputSets);
  EXPECT_EQ(check.elements, 32u * kEdgeInputSets); // every CTA writes out[threadIdx.x]
  EXPECT_NE(check.checked.find("3 input sets, CTAs {0, 15} of 16"), std::string::npos)
      << check.checked;
}

TEST(CrossCheckBudget, GlobalAtomicsKeepASampleFromStandingForTheLaunch) {
  // The optimized kernel adds its CTAs' parts with atomics: a sample is not the launch, and the
  // whole launch does not fit — skipped with both reasons, nothing run.
  launch::ManifestEntry e = soundness_entry("c16_stream_split_atomic");
  LargeLaunch l = large_launch(e, 64, 4);
  const Loaded k = load(l.entry);
  const CrossCheck check =
      cross_check(l.entry, k.reference->program, k.optimized->program, l.request, l.options);
  EXPECT_FALSE(check.ran);
  EXPECT_FALSE(check.contradiction);
  EXPECT_EQ(check.instructions, 0u);
  EXPECT_NE(check.skipped_reason.find("the optimized kernel uses atomics on global memory"),
            std::string::npos)
      << check.skipped_reason;
  // Within the budget the whole launch runs and compares (atomics and all).
  l.options.budget_seconds = 0;
  const CrossCheck whole =
      cross_check(l.entry, k.reference->program, k.optimized->program, l.request, l.options);
  EXPECT_TRUE(whole.ran) << whole.skipped_reason;
  EXPECT_TRUE(whole.reference_ctas.empty());
  EXPECT_FALSE(whole.contradiction);
}

TEST(CrossCheckBudget, ASampledCtaThatReadsWritableMemoryIsNotCompared) {
  // The reference reads out[i] (inout) before writing it: in the whole launch another CTA may
  // have written it first, so the sample's stores are not the launch's.
  LargeLaunch l = large_launch(soundness_entry("c10_inout_times_one"), 16, 4);
  const Loaded k = load(l.entry);
  const CrossCheck check =
      cross_check(l.entry, k.reference->program, k.optimized->program, l.request, l.options);
  EXPECT_FALSE(check.ran);
  EXPECT_EQ(check.elements, 0u);
  EXPECT_NE(check.skipped_reason.find("read global memory that they did not write"),
            std::string::npos)
      << check.skipped_reason;
}

// ---- through the entry: INCONSISTENT

entry::EntryResult claimed_equivalent(const launch::ManifestEntry& e) {
  entry::EntryResult r;
  r.name = e.name;
  r.kind = launch::EntryKind::Equivalence;
  r.expected = e.expected;
  r.verdict = Verdict::Equivalent;
  r.detail = "32 elements equal over the reals (claimed by this test)";
  entry::OutputType t;
  t.array = "out";
  r.output_types = {t};
  return r;
}

entry::ProveOptions with_cross_check() {
  entry::ProveOptions o;
  o.cross_check = [](const launch::ManifestEntry& e, const exec::Program& reference,
                     const exec::Program& optimized, const CrossCheckRequest& request) {
    return cross_check(e, reference, optimized, request);
  };
  return o;
}

TEST(CrossCheckVerdict, AContradictionIsNeverPrintedAsEquivalent) {
  const launch::ManifestEntry e = soundness_entry("c22_nan_bits_guard");
  exec::KernelCache kernels;
  entry::EntryResult r = claimed_equivalent(e);
  entry::apply_cross_check(e, kernels, with_cross_check(), std::chrono::steady_clock::now(), r);
  EXPECT_EQ(r.verdict, Verdict::Inconsistent);
  EXPECT_FALSE(r.matches());
  EXPECT_EQ(entry::exit_status({r}), kInternalError);
  EXPECT_EQ(r.detail.rfind("the emulator contradicts EQUIVALENT: on cross-check input 0 "
                           "('specials') out[",
                           0),
            0u)
      << r.detail;
  EXPECT_TRUE(r.phases.count("cross_check"));

  // The reports: the JSON's cross_check object and exit status, the console line, SARIF.
  const nlohmann::json j = report::to_json(r);
  EXPECT_EQ(j["verdict"], "INCONSISTENT");
  EXPECT_EQ(j["match"], false);
  EXPECT_TRUE(j["cross_check"]["ran"].get<bool>());
  EXPECT_EQ(j["cross_check"]["contradiction"]["input_name"], "specials");
  EXPECT_EQ(report::exit_status(nlohmann::json::array({j})), kInternalError);
  std::ostringstream line;
  report::print_result_line(line, r, report::LineStyle{});
  EXPECT_NE(line.str().find("INCONSISTENT"), std::string::npos);
  EXPECT_NE(line.str().find("--cross-check-input 0"), std::string::npos) << line.str();
  EXPECT_EQ(report::sarif_rule_id("INCONSISTENT"), "inconsistent");
}

TEST(CrossCheckVerdict, OffByFlagOrByEntry) {
  launch::ManifestEntry e = soundness_entry("c22_nan_bits_guard");
  exec::KernelCache kernels;
  entry::EntryResult r = claimed_equivalent(e);
  entry::apply_cross_check(e, kernels, entry::ProveOptions{}, std::chrono::steady_clock::now(), r);
  EXPECT_EQ(r.verdict, Verdict::Equivalent) << "no hook installed: off";
  EXPECT_FALSE(r.cross_check);
  e.cross_check = false; // "cross_check": false in the manifest
  entry::apply_cross_check(e, kernels, with_cross_check(), std::chrono::steady_clock::now(), r);
  EXPECT_EQ(r.verdict, Verdict::Equivalent);
  EXPECT_FALSE(r.cross_check);
}

TEST(CrossCheckVerdict, AStreamedEquivalentIsCrossCheckedToo) {
  // 64 CTAs proved a group of 8 at a time (entry/streamed_entry.hpp): the EQUIVALENT that comes
  // out of the groups is cross-checked over the whole grid.
  const launch::ManifestEntry e = soundness_entry("c16_stream_equal");
  exec::KernelCache kernels;
  entry::ProveOptions o = with_cross_check();
  o.stream_min_ctas = 8;
  const entry::EntryResult r = entry::prove_equivalence_entry(e, kernels, o);
  ASSERT_EQ(r.verdict, Verdict::Equivalent) << r.detail;
  EXPECT_NE(r.detail.find("groups of CTAs"), std::string::npos) << r.detail;
  ASSERT_TRUE(r.cross_check);
  EXPECT_TRUE(r.cross_check->ran) << r.cross_check->skipped_reason;
  EXPECT_EQ(r.cross_check->elements, 2048u * r.cross_check->inputs);
  EXPECT_FALSE(r.cross_check->contradiction);
}

TEST(CrossCheckVerdict, TheRequestSaysWhatTheProofCompared) {
  entry::EntryResult r;
  entry::OutputType real, integer;
  real.array = "y";
  integer.array = "n";
  integer.integer = true;
  r.output_types = {real, integer};
  entry::KernelSummary k;
  k.role = "reference";
  k.stats.instructions = 1000;
  r.kernels.push_back(k);
  k.role = "optimized";
  k.stats.instructions = 700;
  r.kernels.push_back(k);
  const CrossCheckRequest request = entry::cross_check_request(r, 2.5);
  ASSERT_EQ(request.arrays.size(), 2u);
  EXPECT_TRUE(request.arrays[0].real);
  EXPECT_FALSE(request.arrays[1].real);
  EXPECT_EQ(request.reference_instructions, 1000u);
  EXPECT_EQ(request.optimized_instructions, 700u);
  EXPECT_EQ(request.proof_seconds, 2.5);
}

} // namespace
} // namespace volta::emulate
