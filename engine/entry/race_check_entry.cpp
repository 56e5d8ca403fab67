#include "engine/entry/race_check_entry.hpp"

#include <chrono>
#include <fmt/format.h>

#include "engine/entry/batch_runs.hpp"
#include "engine/entry/run_configuration.hpp"
#include "engine/entry/streamed_entry.hpp"
#include "engine/exec/grouped_launch.hpp"
#include "engine/launch/cluster.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::entry {

namespace {

// Why a RACE_FREE answer would rest on a domain assumption: a predicate decided over the reals
// whose value involves a partial operation (division, root, logarithm, integer division).
std::optional<std::string> partial_decision(const exec::KernelRun& run,
                                            const symbolic::ExprStore& store) {
  for (symbolic::ExprId root : run.control_roots) {
    if (store.taint(root) & symbolic::kTaintPartial)
      return fmt::format("a branch was decided over the reals on {}, which involves a division "
                         "or another partial operation: on inputs where that is undefined the "
                         "device may take the other path, so no RACE_FREE is claimed",
                         symbolic::to_sexpr(store, root, 160));
  }
  return std::nullopt;
}

constexpr const char* kRaceFree =
    "no data race, no out-of-bounds access, no deadlock, no uninitialized output";

// The race check of a whole grid, a group of CTAs at a time (exec/grouped_launch.hpp): RACE_FREE
// when no group found anything, else nullopt (the whole grid then runs and reports it). Races
// between groups are found as in one run, through the race shadow kept across groups.
std::optional<EntryResult> check_race_streamed(const launch::KernelConfig& config,
                                               exec::KernelCache& cache,
                                               const CheckOptions& options) {
  if (options.runs != nullptr)
    return std::nullopt; // a kept run of the whole grid answers faster
  const exec::LoadResult loaded = cache.load(config.ptx_path, config.entry);
  if (!loaded.kernel || !exec::check_config(loaded.kernel->program, config).empty() ||
      !launch::cluster_problem_of(loaded.kernel->module, config).empty() ||
      !exec::why_not_groupable(loaded.kernel->program, config, options.run).empty())
    return std::nullopt;
  const uint32_t groups =
      group_count(config.cta_count(), config.cta_count(), min_ctas_per_group(0));
  if (groups < 2)
    return std::nullopt;
  exec::GroupedLaunch launch(loaded.kernel->program, config, options.run);
  KernelSummary summary = kernel_summary(config, "kernel", *loaded.kernel);
  for (uint32_t g = 0; g < groups; ++g) {
    symbolic::ExprStore store; // the group's values, dropped at the end of the iteration
    const exec::KernelRun run = launch.run_part(store, g, groups);
    summary.stats += run.stats;
    summary.seconds += run.seconds;
    if (run.failure || !run.races.empty() || output_failure(run, store, false) ||
        partial_decision(run, store))
      return std::nullopt;
  }
  EntryResult result;
  result.kind = launch::EntryKind::RaceCheck;
  result.kernels.push_back(summary);
  result.phases["execute"] = summary.seconds;
  result.verdict = Verdict::RaceFree;
  result.detail = fmt::format("{}; checked in {} groups of CTAs", kRaceFree, groups);
  return result;
}

} // namespace

RaceCheck check_race(const launch::KernelConfig& config, exec::KernelCache& cache,
                     const CheckOptions& options) {
  RaceCheck check;
  EntryResult& result = check.result;
  result.kind = launch::EntryKind::RaceCheck;
  const symbolic::ExprStore& store = *check.store;
  check.run =
      execute_config(config, "kernel", cache, *check.store, options.run, result, options.runs);
  if (!check.run || check.run->failure)
    return check;
  if (auto f = output_failure(*check.run, store, false)) {
    result.verdict = f->verdict;
    result.detail = f->message;
    result.failure = f;
    result.failure_kernel = "kernel";
  } else if (auto relied = partial_decision(*check.run, store)) {
    // A branch decided over the reals assumed a value defined that an input can make undefined
    // (a NaN from 0/0 takes the other path on the device), and a race check has no reference
    // to assume it: RACE_FREE would not hold for every input.
    result.verdict = Verdict::Unknown;
    result.detail = *relied;
  } else {
    result.verdict = Verdict::RaceFree;
    result.detail = kRaceFree;
  }
  return check;
}

EntryResult check_race_entry(const launch::ManifestEntry& entry, exec::KernelCache& cache,
                             const CheckOptions& options) {
  // The entry's own race rule and assumptions ("races", "assume") over the command line's.
  if (entry_overrides_run(entry, options.run)) {
    CheckOptions own = options;
    own.run = entry_run_options(entry, options.run);
    return check_race_entry(entry, cache, own);
  }
  const auto start = std::chrono::steady_clock::now();
  EntryResult result;
  if (!entry.error.empty()) {
    result.kind = launch::EntryKind::RaceCheck;
    result.verdict = Verdict::Error;
    result.bad_input = true;
    result.detail = entry.error;
    result.input_where = entry.error_where;
  } else if (auto streamed = options.stream ? check_race_streamed(entry.kernel, cache, options)
                                            : std::nullopt) {
    result = std::move(*streamed);
  } else {
    result = check_race(entry.kernel, cache, options).result;
  }
  result.name = entry.name;
  result.expected = entry.expected;
  note_assumptions(options.run, result);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

} // namespace volta::entry
