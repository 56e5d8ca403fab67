#include "engine/entry/equivalence_entry.hpp"

#include <chrono>

#include "engine/entry/batch_runs.hpp"
#include "engine/entry/cross_check_verdict.hpp"
#include "engine/entry/difference_site.hpp"
#include "engine/entry/pair_decision.hpp"
#include "engine/entry/pair_preparation.hpp"
#include "engine/entry/rounding_bounds.hpp"
#include "engine/entry/streamed_entry.hpp"
#include "engine/entry_progress.hpp"

namespace volta::entry {

using Clock = std::chrono::steady_clock;

EntryResult prove_equivalence_entry(const launch::ManifestEntry& entry, exec::KernelCache& kernels,
                                    const ProveOptions& options) {
  // The entry's own race rule and assumptions ("races", "assume") over the command line's.
  if (entry_overrides_run(entry, options.run)) {
    ProveOptions own = options;
    own.run = entry_run_options(entry, options.run);
    return prove_equivalence_entry(entry, kernels, own);
  }
  const auto start = Clock::now();
  // Every EQUIVALENT, streamed or not, is cross-checked on the emulator before it is reported.
  auto finish = [&](EntryResult result) -> EntryResult {
    if (result.verdict == Verdict::Equivalent) {
      report_progress("cross-check");
      apply_cross_check(entry, kernels, options, start, result);
    }
    // Only an element the prover compared (not a refuted domain condition) is located.
    if (result.verdict == Verdict::NotEquivalent && options.locate_differences &&
        result.counterexample && result.counterexample->confirmed &&
        !result.counterexample->location && // already said why not (streamed_entry.cpp)
        result.elements.not_equivalent > 0 &&
        !(options.run.cancel != nullptr && options.run.cancel->load())) {
      report_progress("locating the difference");
      locate_difference(entry, kernels, options, *result.counterexample);
    }
    note_assumptions(options.run, result);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  };
  // Over a whole grid, group by group when both kernels allow it and every group proves
  // equal; otherwise (and for everything but EQUIVALENT) the whole grid at once.
  if (options.stream) {
    if (auto streamed = prove_streamed(entry, kernels, options, start))
      return finish(std::move(*streamed));
  }
  EntryResult result;
  result.name = entry.name;
  result.kind = launch::EntryKind::Equivalence;
  result.expected = entry.expected;
  PreparedPair pair;
  if (!prepare_pair(entry, kernels, options.run, options.runs, pair, result,
                    options.share_runs ? options.batch_runs : nullptr, options.share_runs))
    return finish(std::move(result));
  bound_rounding_errors(entry, *pair.store, pair.jobs, options.input_range, result.output_types,
                        options.cancel);
  const PairDecision decision = decide_pair(pair, options, start, result);
  conclude(entry, options, decision, start, result);
  return finish(std::move(result));
}

} // namespace volta::entry
