// The per-batch kernel runs (entry/batch_runs.hpp) as a unit: which entries take a run from the
// batch, that only runs which ended by themselves are handed on (never one a guard stopped),
// that a run is handed only for the same PTX bytes, that every key difference is another run, and
// that a kept run goes once the last entry counted for it took it or finished.
#include <gtest/gtest.h>
#include <thread>

#include "engine/entry/batch_runs.hpp"

namespace volta::entry {
namespace {

launch::KernelConfig config(const std::string& ptx, uint64_t len = 64) {
  launch::KernelConfig c;
  c.ptx_path = ptx;
  c.entry = "k";
  c.block = {32, 1, 1};
  launch::ArraySpec in;
  in.name = "in";
  in.base = 0x1000;
  in.len = len;
  c.arrays.push_back(in);
  launch::ParamSpec p;
  p.kind = launch::ParamSpec::Kind::Ptr;
  p.name = "in";
  p.text = "ptr:in";
  c.params.push_back(p);
  return c;
}

launch::ManifestEntry pair(const std::string& name, launch::KernelConfig ref,
                           launch::KernelConfig opt) {
  launch::ManifestEntry e;
  e.name = name;
  e.kind = launch::EntryKind::Equivalence;
  e.reference = std::move(ref);
  e.optimized = std::move(opt);
  return e;
}

std::shared_ptr<const exec::LoadedKernel> loaded(const std::string& text) {
  auto k = std::make_shared<exec::LoadedKernel>();
  k->source_text = text;
  return k;
}

TEST(BatchRunKey, EveryDifferenceIsAnotherKey) {
  const exec::RunOptions o;
  const auto base = run_key(config("a.ptx"), o);
  ASSERT_TRUE(base);
  EXPECT_EQ(base, run_key(config("a.ptx"), o));
  std::vector<launch::KernelConfig> others(12, config("a.ptx"));
  others[0].ptx_path = "b.ptx";
  others[1].entry = "k2";
  others[2].block = {64, 1, 1};
  others[3].grid = {2, 1, 1};
  others[4].arrays[0].len = 65;
  others[5].arrays[0].type = launch::ElemType::F16;
  others[6].arrays[0].elem_width = 2;
  others[7].arrays[0].base = 0x2000;
  others[8].ctas = launch::CtaMode::First;
  others[9].dyn_shared_bytes = 16;
  others[10].params[0].text = "ptr:other";
  others[11].cluster_given = true;
  for (const auto& c : others)
    EXPECT_NE(base, run_key(c, o));
  launch::KernelConfig param = config("a.ptx");
  param.params.push_back(launch::ParamSpec{});
  param.params.back().int_value = 3;
  launch::KernelConfig param4 = param;
  param4.params.back().int_value = 4;
  EXPECT_NE(run_key(param, o), run_key(param4, o));
  exec::RunOptions strict = o, unchecked = o, budget = o;
  strict.benign_races = false;
  unchecked.check_races = false;
  budget.max_instructions = 1000;
  for (const auto& other : {strict, unchecked, budget})
    EXPECT_NE(base, run_key(config("a.ptx"), other));
  // A run that records value origins (locating a difference) is never shared.
  exec::OriginLog* origins = reinterpret_cast<exec::OriginLog*>(uintptr_t{8});
  exec::RunOptions located = o;
  located.origins = origins;
  EXPECT_FALSE(run_key(config("a.ptx"), located));
}

TEST(BatchRuns, OnlyAKeyTwoEntriesTakeIsKept) {
  const auto a = pair("a", config("r.ptx"), config("x.ptx"));
  const auto b = pair("b", config("r.ptx"), config("y.ptx"));
  const auto c = pair("c", config("r.ptx", 32), config("z.ptx"));
  BatchRuns runs({&a, &b, &c}, exec::RunOptions{});
  EXPECT_EQ(runs.shared_role(a), "reference");
  EXPECT_EQ(runs.shared_role(b), "reference");
  EXPECT_FALSE(runs.shared_role(c)) << "another array length: its own run";
}

exec::KernelRun finished_run() {
  exec::KernelRun run;
  run.stats.instructions = 42;
  return run;
}

// The first entry produces; `run` is what its execution gave. Returns whether the second took it.
bool second_takes(const exec::KernelRun& run) {
  const auto a = pair("a", config("r.ptx"), config("x.ptx"));
  const auto b = pair("b", config("r.ptx"), config("y.ptx"));
  BatchRuns runs({&a, &b}, exec::RunOptions{});
  const auto kernel = loaded("ptx text");
  auto first = runs.take(a, "reference", kernel, nullptr);
  EXPECT_FALSE(first.kept);
  EXPECT_TRUE(first.production);
  std::shared_ptr<const symbolic::ExprStore> kept;
  first.production->offer(std::make_unique<symbolic::ExprStore>(), run, 1, "a", kernel, kept);
  auto second = runs.take(b, "reference", kernel, nullptr);
  EXPECT_FALSE(second.production);
  if (second.kept) {
    EXPECT_EQ(second.kept->executed_by, "a");
    EXPECT_EQ(second.kept->run.stats.instructions, run.stats.instructions);
  }
  return second.kept.has_value();
}

TEST(BatchRuns, AFinishedRunOrAFindingIsHandedOn) {
  EXPECT_TRUE(second_takes(finished_run()));
  exec::KernelRun race = finished_run();
  race.failure = exec::Failure{};
  race.failure->verdict = Verdict::DataRace;
  EXPECT_TRUE(second_takes(race));
}

TEST(BatchRuns, ARunAGuardStoppedIsNeverHandedOn) {
  for (auto category : {exec::FailureCategory::Cancelled, exec::FailureCategory::InstructionBudget,
                        exec::FailureCategory::BadInput}) {
    exec::KernelRun run = finished_run();
    run.failure = exec::Failure{};
    run.failure->verdict =
        category == exec::FailureCategory::BadInput ? Verdict::Error : Verdict::Unknown;
    run.failure->category = category;
    EXPECT_FALSE(second_takes(run)) << static_cast<int>(category);
  }
  // Races cut short by a guard: the run may miss some.
  exec::KernelRun cut = finished_run();
  cut.failure = exec::Failure{};
  cut.failure->verdict = Verdict::DataRace;
  cut.races_cut_short = true;
  EXPECT_FALSE(second_takes(cut));
}

TEST(BatchRuns, AStoppedProducerLetsTheNextEntryExecute) {
  const auto a = pair("a", config("r.ptx"), config("x.ptx"));
  const auto b = pair("b", config("r.ptx"), config("y.ptx"));
  const auto c = pair("c", config("r.ptx"), config("z.ptx"));
  BatchRuns runs({&a, &b, &c}, exec::RunOptions{});
  const auto kernel = loaded("ptx text");
  {
    auto first = runs.take(a, "reference", kernel, nullptr);
    ASSERT_TRUE(first.production);
    // Dropped without an offer (an exception, a cancelled run): the slot is free again.
  }
  auto second = runs.take(b, "reference", kernel, nullptr);
  EXPECT_FALSE(second.kept);
  ASSERT_TRUE(second.production) << "c will take it: b executes it";
  std::shared_ptr<const symbolic::ExprStore> kept;
  EXPECT_EQ(second.production->offer(std::make_unique<symbolic::ExprStore>(), finished_run(), 1,
                                     "b", kernel, kept),
            nullptr);
  EXPECT_TRUE(kept && kept->sealed());
  auto third = runs.take(c, "reference", kernel, nullptr);
  ASSERT_TRUE(third.kept);
  EXPECT_EQ(third.kept->executed_by, "b");
}

TEST(BatchRuns, OtherPtxBytesAreNotTaken) {
  const auto a = pair("a", config("r.ptx"), config("x.ptx"));
  const auto b = pair("b", config("r.ptx"), config("y.ptx"));
  BatchRuns runs({&a, &b}, exec::RunOptions{});
  auto first = runs.take(a, "reference", loaded("one text"), nullptr);
  ASSERT_TRUE(first.production);
  std::shared_ptr<const symbolic::ExprStore> kept;
  first.production->offer(std::make_unique<symbolic::ExprStore>(), finished_run(), 1, "a",
                          loaded("one text"), kept);
  auto second = runs.take(b, "reference", loaded("another text"), nullptr);
  EXPECT_FALSE(second.kept);
  EXPECT_FALSE(second.production);
}

TEST(BatchRuns, AKeptRunGoesWithItsLastTaker) {
  const auto a = pair("a", config("r.ptx"), config("x.ptx"));
  const auto b = pair("b", config("r.ptx"), config("y.ptx"));
  const auto c = pair("c", config("r.ptx"), config("z.ptx"));
  BatchRuns runs({&a, &b, &c}, exec::RunOptions{});
  const auto kernel = loaded("ptx text");
  auto first = runs.take(a, "reference", kernel, nullptr);
  std::shared_ptr<const symbolic::ExprStore> kept;
  first.production->offer(std::make_unique<symbolic::ExprStore>(), finished_run(), 1, "a", kernel,
                          kept);
  std::weak_ptr<const symbolic::ExprStore> watch = kept;
  kept.reset();
  EXPECT_FALSE(watch.expired()) << "b and c will take it";
  runs.finished(b); // b ended without taking it (a streamed proof, say)
  EXPECT_FALSE(watch.expired());
  auto third = runs.take(c, "reference", kernel, nullptr);
  ASSERT_TRUE(third.kept);
  third.kept.reset();
  EXPECT_TRUE(watch.expired()) << "nobody else will take it: the batch keeps nothing";
  EXPECT_EQ(runs.reuse_count(), 1u);
}

TEST(BatchRuns, AWaitingEntryStopsAtItsGuard) {
  const auto a = pair("a", config("r.ptx"), config("x.ptx"));
  const auto b = pair("b", config("r.ptx"), config("y.ptx"));
  BatchRuns runs({&a, &b}, exec::RunOptions{});
  const auto kernel = loaded("ptx text");
  auto first = runs.take(a, "reference", kernel, nullptr);
  ASSERT_TRUE(first.production);
  std::atomic<bool> cancel{false};
  std::thread guard([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  auto second = runs.take(b, "reference", kernel, &cancel);
  guard.join();
  EXPECT_FALSE(second.kept);
  EXPECT_FALSE(second.production);
}

} // namespace
} // namespace volta::entry
