#include "engine/entry/streamed_entry.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <tbb/info.h>
#include <tbb/parallel_invoke.h>

#include "engine/entry/pair_decision.hpp"
#include "engine/entry/pair_preparation.hpp"
#include "engine/entry/run_configuration.hpp"
#include "engine/exec/grouped_launch.hpp"
#include "support/invariant.hpp"

namespace volta::entry {

namespace {

// A group of CTAs per core keeps the cores busy; fewer, larger groups spend less on starting
// stores, provers and templates over again.
constexpr uint32_t kMinCtasPerGroup = 8;

// The element types of a group's outputs into the entry's: an array whose elements were stored
// with one type in some groups and another in others is "mixed", as over the whole grid.
void merge_output_types(const std::vector<OutputType>& group, std::vector<OutputType>& into) {
  if (into.empty()) {
    into = group;
    return;
  }
  auto merge = [](const std::string& from, std::string& to) {
    if (to.empty())
      to = from;
    else if (!from.empty() && from != to)
      to = "mixed";
  };
  for (size_t i = 0; i < group.size() && i < into.size(); ++i) {
    merge(group[i].reference_stores, into[i].reference_stores);
    merge(group[i].optimized_stores, into[i].optimized_stores);
    into[i].integer = into[i].integer && group[i].integer; // one real element makes it real
  }
}

} // namespace

uint32_t group_count(uint64_t reference_ctas, uint64_t optimized_ctas, uint32_t min_ctas) {
  const uint64_t common = std::gcd(reference_ctas, optimized_ctas);
  const uint64_t smaller = std::min(reference_ctas, optimized_ctas);
  for (uint64_t groups = std::min<uint64_t>(common, UINT32_MAX); groups >= 2; --groups) {
    if (common % groups == 0 && smaller / groups >= min_ctas)
      return static_cast<uint32_t>(groups);
  }
  return 1;
}

uint32_t min_ctas_per_group(uint32_t requested) {
  if (requested != 0)
    return requested;
  const uint32_t cores = static_cast<uint32_t>(std::max(1, tbb::info::default_concurrency()));
  return std::max(kMinCtasPerGroup, 4 * cores);
}

std::optional<EntryResult> prove_streamed(const launch::ManifestEntry& entry,
                                          exec::KernelCache& kernels, const ProveOptions& options,
                                          std::chrono::steady_clock::time_point entry_start) {
  if (!entry.error.empty())
    return std::nullopt;
  EntryResult result;
  result.name = entry.name;
  result.kind = launch::EntryKind::Equivalence;
  result.expected = entry.expected;
  if (!preflight_pair(entry, kernels, result))
    return std::nullopt;
  const launch::KernelConfig* configs[2] = {&entry.reference, &entry.optimized};
  exec::LoadResult loads[2] = {kernels.load(configs[0]->ptx_path, configs[0]->entry),
                               kernels.load(configs[1]->ptx_path, configs[1]->entry)};
  for (int k = 0; k < 2; ++k) {
    if (!loads[k].kernel ||
        !exec::why_not_groupable(loads[k].kernel->program, *configs[k], options.run).empty())
      return std::nullopt;
  }
  const uint32_t groups = group_count(configs[0]->cta_count(), configs[1]->cta_count(),
                                      min_ctas_per_group(options.stream_min_ctas));
  if (groups < 2)
    return std::nullopt;

  exec::GroupedLaunch launches[2] = {
      exec::GroupedLaunch(loads[0].kernel->program, *configs[0], options.run),
      exec::GroupedLaunch(loads[1].kernel->program, *configs[1], options.run)};
  KernelSummary summaries[2] = {kernel_summary(*configs[0], "reference", *loads[0].kernel),
                                kernel_summary(*configs[1], "optimized", *loads[1].kernel)};
  // A template proved in one group is proved for the next ones: through the proof cache
  // (`--cache`), else through one kept in memory, whose hits are template reuse.
  prove::MemoryProofCache proved;
  ProveOptions group_options = options;
  const bool in_memory = options.cache == nullptr;
  if (in_memory)
    group_options.cache = &proved;
  PairDecision decision;
  for (uint32_t g = 0; g < groups; ++g) {
    // The group's store goes with `pair` at the end of the iteration, and every value in it.
    PreparedPair pair;
    std::optional<exec::KernelRun>* runs[2] = {&pair.ref_run, &pair.opt_run};
    auto run = [&](int k) { *runs[k] = launches[k].run_part(*pair.store, g, groups); };
    tbb::parallel_invoke([&] { run(0); }, [&] { run(1); });
    for (int k = 0; k < 2; ++k) {
      const exec::KernelRun& r = **runs[k];
      summaries[k].stats += r.stats;
      summaries[k].seconds += r.seconds;
      result.phases["execute"] += r.seconds;
      if (r.failure || !r.races.empty())
        return std::nullopt;
    }
    EntryResult group_result; // a group with a failure is abandoned: only its types are read
    if (!pair_outputs(entry, pair, group_result) || pair.one_sided != 0)
      return std::nullopt;
    merge_output_types(group_result.output_types, result.output_types);
    const ElementCounts before = result.elements;
    decision = decide_pair(pair, group_options, entry_start, result);
    if (in_memory) {
      const uint64_t hits = result.elements.cached - before.cached;
      result.elements.cached -= hits;
      result.elements.reused += hits;
      result.cache_hits -= hits;
    }
    if (!decision.proved()) {
      // An element left undecided (its prover's budget, the time limit, a cancel) is decided
      // the same way over the whole grid: an element's equality does not depend on other
      // groups, and the entry's time is spent. The rerun would only repeat the work in a store
      // the size of the grid, the one streaming avoids (issue: l = 1024 attention reran the
      // grid into a 10 GB peak). So does a reference defined on no input: the group's
      // unconditional assumptions are the whole grid's too. Differences, failures and undecided
      // domain conditions (which the whole grid's assumptions may discharge) still abandon the
      // groups.
      const bool undecided_element = decision.tally.unknown_reason.has_value();
      if ((!undecided_element && !decision.vacuous) || decision.tally.counts.not_equivalent != 0 ||
          !decision.domain_failure.empty())
        return std::nullopt;
      result.kernels.assign(std::begin(summaries), std::end(summaries));
      conclude(entry, options, decision, result);
      VOLTA_ASSERT(result.verdict == Verdict::Unknown,
                   "an undecided element or a vacuous reference leaves it UNKNOWN");
      result.detail += fmt::format(" (in group {} of {} of CTAs; the whole grid holds the same "
                                   "{}, so it is not rerun)",
                                   g + 1, groups, undecided_element ? "element" : "assumption");
      return result;
    }
  }
  result.kernels.assign(std::begin(summaries), std::end(summaries));
  conclude(entry, options, decision, result);
  if (result.verdict != Verdict::Equivalent)
    return std::nullopt;
  result.detail += fmt::format("; decided in {} groups of CTAs as they finished", groups);
  return result;
}

} // namespace volta::entry
