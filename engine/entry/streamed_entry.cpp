#include "engine/entry/streamed_entry.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <numeric>
#include <tbb/info.h>
#include <tbb/parallel_invoke.h>
#include <unistd.h>

#include "engine/entry/pair_decision.hpp"
#include "engine/entry/pair_preparation.hpp"
#include "engine/entry/rounding_bounds.hpp"
#include "engine/entry/run_configuration.hpp"
#include "engine/exec/global_memory.hpp"
#include "engine/exec/grouped_launch.hpp"
#include "engine/exec/kernel_run.hpp"
#include "support/invariant.hpp"

namespace volta::entry {

namespace {

// A group of CTAs per core keeps the cores busy; fewer, larger groups spend less on starting
// stores, provers and templates over again.
constexpr uint32_t kMinCtasPerGroup = 8;

// One group's rounding bound into the entry's: the largest bounds, the counts summed, the first
// reason kept.
void merge_rounding_bound(const std::optional<RoundingBound>& from,
                          std::optional<RoundingBound>& to) {
  if (!from)
    return;
  if (!to) {
    to = from;
    return;
  }
  to->reference = std::max(to->reference, from->reference);
  to->optimized = std::max(to->optimized, from->optimized);
  if (from->apart > to->apart) {
    to->apart = from->apart;
    to->apart_element = from->apart_element;
  }
  to->bounded += from->bounded;
  if (to->unbounded == 0)
    to->why_unbounded = from->why_unbounded;
  to->unbounded += from->unbounded;
}

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
    // Groups own disjoint elements: the union.
    into[i].exact_elements.merge(group[i].exact_elements);
    merge_rounding_bound(group[i].rounding_bound, into[i].rounding_bound);
  }
}

// The bytes a whole-grid rerun may be expected to take (ProveOptions::stream_rerun_bytes).
size_t rerun_budget(const ProveOptions& options) {
  if (options.stream_rerun_bytes != 0)
    return options.stream_rerun_bytes;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0)
    return SIZE_MAX; // unknown: the rerun is allowed, as before
  return static_cast<size_t>(pages) / 2 * static_cast<size_t>(page);
}

double gib(size_t bytes) {
  return static_cast<double>(bytes) / (1ull << 30);
}

// Keeps in `run`'s output arrays only the elements `like` wrote (same array, same index): an
// anchor's whole-grid run cut to what the streamed kernel's group wrote.
void keep_written_by(exec::KernelRun& run, const exec::KernelRun& like) {
  for (exec::OutputArray& a : run.outputs) {
    const auto l = std::ranges::find(like.outputs, a.name, &exec::OutputArray::name);
    std::vector<std::pair<uint64_t, symbolic::ExprId>> elements;
    std::vector<launch::ElemType> types;
    if (l != like.outputs.end()) {
      size_t j = 0;
      for (size_t i = 0; i < a.elements.size(); ++i) {
        while (j < l->elements.size() && l->elements[j].first < a.elements[i].first)
          ++j;
        if (j < l->elements.size() && l->elements[j].first == a.elements[i].first) {
          elements.push_back(a.elements[i]);
          types.push_back(a.store_types[i]);
        }
      }
    }
    a.elements = std::move(elements);
    a.store_types = std::move(types);
  }
}

// Adds the written indices of the `compared` output arrays of `run` to `into`, by array name
// (each array's indices in the order the groups wrote them).
void add_written(std::map<std::string, std::vector<uint64_t>>& into, const exec::KernelRun& run,
                 const std::vector<std::string>& compared) {
  for (const exec::OutputArray& a : run.outputs) {
    if (std::ranges::find(compared, a.name) == compared.end())
      continue;
    auto& v = into[a.name];
    for (const auto& e : a.elements)
      v.push_back(e.first);
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
  // A group the groups cannot conclude is answered by a run of the whole grid only when that
  // run's store is expected to fit (issue 34: an attention grid rerun into a 10 GB peak); the
  // estimate is the largest group store so far times the number of groups.
  size_t largest_group_bytes = 0;
  const size_t budget = rerun_budget(options);
  const char* roles[2] = {"reference", "optimized"};
  // Anchored groups: where the two grids do not split alike (a persistent kernel whose CTA 0
  // writes what the other kernel's first group does not; FA3 against a naive attention) and
  // the whole grid would not fit, the kernel that is cheaper to run
  // (`anchor`, 0 or 1) runs its whole grid afresh in every group, cut to the elements the other
  // kernel's group wrote; the other kernel streams. The groups' written elements must add up
  // to the anchor's (`anchor_written`, `streamed_written`), else the groups decide nothing.
  int anchor = -1;
  const std::vector<std::string> compared = compared_arrays(entry);
  std::map<std::string, std::vector<uint64_t>> anchor_written, streamed_written;
  auto run_anchor = [&](symbolic::ExprStore& store) {
    exec::GroupedLaunch whole(loads[anchor].kernel->program, *configs[anchor], options.run);
    return whole.run_group(store, 0, whole.cta_count());
  };
  // An element difference a group found where the whole grid would not fit: the decision and
  // its group. The other groups still run (a failure or race in one is what the whole grid
  // would report instead), without proving.
  std::optional<std::pair<PairDecision, uint32_t>> difference;
  for (uint32_t g = 0; g < groups; ++g) {
    // The group's store goes with `pair` at the end of the iteration, and every value in it.
    PreparedPair pair;
    std::optional<exec::KernelRun>* runs[2] = {&pair.ref_run, &pair.opt_run};
    auto run = [&](int k) {
      *runs[k] =
          k == anchor ? run_anchor(*pair.store) : launches[k].run_part(*pair.store, g, groups);
    };
    // Both configurations' array marks first: each kernel reads them while it runs.
    exec::mark_declared_types(*pair.store, entry.reference);
    exec::mark_declared_types(*pair.store, entry.optimized);
    tbb::parallel_invoke([&] { run(0); }, [&] { run(1); });
    const symbolic::ExprStore::Footprint footprint = pair.store->footprint();
    largest_group_bytes =
        std::max(largest_group_bytes, footprint.node_bytes + footprint.table_bytes);
    const size_t grid_bytes =
        largest_group_bytes > budget / groups ? SIZE_MAX : largest_group_bytes * groups;
    const bool rerun_fits = grid_bytes <= budget;
    const std::string in_group = fmt::format("in group {} of {} of CTAs", g + 1, groups);
    const std::string no_rerun = fmt::format(
        "the whole grid is not rerun: its store, about {} x {:.3g} GiB, would not fit in {:.3g} "
        "GiB",
        groups, gib(largest_group_bytes), gib(budget));
    for (int k = 0; k < 2; ++k) {
      const exec::KernelRun& r = **runs[k];
      summaries[k].stats += r.stats;
      summaries[k].seconds += r.seconds;
      result.phases["execute"] += r.seconds;
    }
    // A failure or race of kernel k's run `r` (its group's CTAs, or the anchor's whole grid,
    // `where`): the entry's result, or nullopt for a run of the whole grid.
    auto finding = [&](int k, const exec::KernelRun& r,
                       const std::string& where) -> std::optional<EntryResult> {
      // The time or memory guard, or the instruction budget (which counts over all groups):
      // the whole grid would stop at the same guard, after running again what the groups ran.
      const bool guard =
          r.failure && (r.failure->category == exec::FailureCategory::Cancelled ||
                        r.failure->category == exec::FailureCategory::InstructionBudget);
      if ((!guard && rerun_fits) || !r.failure)
        return std::nullopt;
      // A finding of the group's CTAs is one of the grid's: they run as in the whole grid (a
      // value crossing groups is a race, grouped_launch.hpp). Reported as the whole grid's
      // would be, reference first, naming the group.
      result.kernels.assign(std::begin(summaries), std::end(summaries));
      record_failure(r, roles[k], result);
      result.detail = fmt::format("{} kernel: {} ({}; {})", roles[k], result.detail, where,
                                  guard ? "the whole grid is not rerun: it would stop at the "
                                          "same limit"
                                        : no_rerun);
      return result;
    };
    for (int k = 0; k < 2; ++k) {
      const exec::KernelRun& r = **runs[k];
      if (r.failure || !r.races.empty())
        return finding(k, r, in_group);
    }
    EntryResult group_result; // a group with a failure is abandoned: only its types are read
    if (anchor >= 0) {
      add_written(streamed_written, **runs[1 - anchor], compared);
      keep_written_by(**runs[anchor], **runs[1 - anchor]);
    }
    bool paired = pair_outputs(entry, pair, group_result);
    if (g == 0 && anchor < 0 && pair.one_sided != 0 && !rerun_fits &&
        !(options.run.cancel != nullptr && options.run.cancel->load())) {
      // The first group's written elements differ and the whole grid would not fit: anchor
      // the cheaper kernel (by this group's instructions), run its whole grid into this
      // group's store, and pair again.
      anchor = (*runs[0])->stats.instructions <= (*runs[1])->stats.instructions ? 0 : 1;
      *runs[anchor] = run_anchor(*pair.store);
      summaries[anchor].stats += (*runs[anchor])->stats;
      summaries[anchor].seconds += (*runs[anchor])->seconds;
      result.phases["execute"] += (*runs[anchor])->seconds;
      if ((*runs[anchor])->failure || !(*runs[anchor])->races.empty())
        return finding(anchor, **runs[anchor], "in its whole grid, run as the groups' anchor");
      add_written(anchor_written, **runs[anchor], compared);
      add_written(streamed_written, **runs[1 - anchor], compared);
      keep_written_by(**runs[anchor], **runs[1 - anchor]);
      pair.jobs.clear();
      pair.one_sided = 0;
      group_result = EntryResult{};
      paired = pair_outputs(entry, pair, group_result);
    }
    if (!paired || pair.one_sided != 0) {
      if (rerun_fits)
        return std::nullopt;
      // An output failure (a value no verdict may rest on) is the group's own finding; an
      // element one kernel writes may be written by the other kernel in another group.
      result.kernels.assign(std::begin(summaries), std::end(summaries));
      if (pair.one_sided == 0 && group_result.failure) {
        result.verdict = group_result.verdict;
        result.failure = group_result.failure;
        result.failure_kernel = group_result.failure_kernel;
        result.detail = fmt::format("{} ({}; {})", group_result.detail, in_group, no_rerun);
      } else {
        result.verdict = Verdict::Unknown;
        result.detail = fmt::format(
            "{}: {} ({}; {})", in_group,
            pair.one_sided != 0 ? "elements written by one kernel only, which the other may "
                                  "write in another group"
                                : group_result.detail,
            "only the whole grid decides it", no_rerun);
      }
      return result;
    }
    if (difference)
      continue;
    bound_rounding_errors(entry, *pair.store, pair.jobs, options.input_range,
                          group_result.output_types, options.cancel);
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
      const bool grid_decides = (!undecided_element && !decision.vacuous) ||
                                decision.tally.counts.not_equivalent != 0 ||
                                !decision.domain_failure.empty();
      if (grid_decides && rerun_fits)
        return std::nullopt;
      // An element that differs, with a confirmed point: the whole grid decides its elements
      // the same way (an element's value does not depend on the other groups) and stops at a
      // difference as the group did, before any domain condition. It reports a failure or a
      // race of another group first, so those groups run before the verdict.
      if (decision.tally.counts.not_equivalent != 0 && decision.domain_failure.empty() &&
          result.counterexample && result.counterexample->confirmed) {
        difference.emplace(decision, g);
        continue;
      }
      result.kernels.assign(std::begin(summaries), std::end(summaries));
      if (grid_decides) {
        // A domain condition of the group is decided under the group's assumptions only
        // (another group's reference may be undefined at its point), and so is a difference
        // without a confirmed point: without the whole grid it stays UNKNOWN, with what the
        // group found.
        const std::string found =
            decision.tally.counts.not_equivalent != 0
                ? fmt::format("{} element(s) differ under this group's assumptions",
                              decision.tally.counts.not_equivalent)
            : !decision.domain_failure.empty()
                ? "a domain condition is refuted under this group's assumptions: " +
                      decision.domain_failure
                : "a domain condition is undecided: " + decision.domain_unknown.value_or("");
        result.verdict = Verdict::Unknown;
        result.counterexample.reset();
        result.detail = fmt::format("{}: {}; only the whole grid's assumptions decide it ({})",
                                    in_group, found, no_rerun);
        return result;
      }
      conclude(entry, options, decision, entry_start, result);
      VOLTA_ASSERT(result.verdict == Verdict::Unknown,
                   "an undecided element or a vacuous reference leaves it UNKNOWN");
      result.detail += fmt::format(" ({}; the whole grid holds the same {}, so it is not rerun)",
                                   in_group, undecided_element ? "element" : "assumption");
      return result;
    }
  }
  if (anchor >= 0) {
    // Every element the anchor writes was compared in some group, and no other: the groups'
    // elements are disjoint (a group writing what another wrote is a race, reported above).
    for (auto& [name, indices] : streamed_written)
      std::ranges::sort(indices);
    if (streamed_written != anchor_written) {
      // (Anchored only where the whole grid did not fit; the estimate has only grown since.)
      result.kernels.assign(std::begin(summaries), std::end(summaries));
      result.verdict = Verdict::Unknown;
      result.detail = fmt::format(
          "the {} kernel's groups of CTAs wrote other elements than its whole grid's {} kernel "
          "(only the whole grid decides it; its store would not fit)",
          roles[1 - anchor], roles[anchor]);
      return result;
    }
  }
  if (difference) {
    result.kernels.assign(std::begin(summaries), std::end(summaries));
    conclude(entry, options, difference->first, entry_start, result);
    VOLTA_ASSERT(result.verdict == Verdict::NotEquivalent, "a confirmed difference concludes");
    // The group's point satisfies the group's assumptions of the reference, not those of the
    // other groups: where the reference's run there leaves the reals, it may be undefined in
    // another group, and the difference proves nothing.
    if (!result.counterexample->reference_undefined_on_device.empty()) {
      result.verdict = Verdict::Unknown;
      result.detail = fmt::format(
          "in group {} of {} of CTAs, {} differs at a point that satisfies the group's "
          "assumptions of the reference, but {}: another group's may fail there, and only the "
          "whole grid's decide it ({})",
          difference->second + 1, groups, result.counterexample->element,
          result.counterexample->reference_undefined_on_device, "its store would not fit");
      result.counterexample.reset();
      return result;
    }
    // Locating it needs a second run of both whole grids (recording where values are made),
    // the run that does not fit: H07 grew past 24 GiB there.
    result.counterexample->location.emplace().note =
        "not located: the run that records where values are made is of the whole grid, which "
        "does not fit in memory";
    result.detail += fmt::format(" (in group {} of {} of CTAs; the other groups ran without a "
                                 "finding, and the whole grid is not rerun)",
                                 difference->second + 1, groups);
    return result;
  }
  result.kernels.assign(std::begin(summaries), std::end(summaries));
  conclude(entry, options, decision, entry_start, result);
  if (result.verdict != Verdict::Equivalent)
    return std::nullopt;
  result.detail +=
      anchor < 0
          ? fmt::format("; decided in {} groups of CTAs as they finished", groups)
          : fmt::format("; decided in {} groups of the {} kernel's CTAs, each against the {} "
                        "kernel's whole grid",
                        groups, roles[1 - anchor], roles[anchor]);
  return result;
}

} // namespace volta::entry
