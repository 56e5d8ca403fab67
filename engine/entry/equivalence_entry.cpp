#include "engine/entry/equivalence_entry.hpp"

#include <chrono>
#include <fmt/format.h>

#include "engine/entry/pair_preparation.hpp"
#include "engine/prove/decide_elements.hpp"

namespace volta::entry {

using Clock = std::chrono::steady_clock;
using symbolic::ExprId;

namespace {

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The entry's guard when an element's limit left it UNKNOWN (Z3's own size limit is not one of
// the user's guards: only --max-terms makes it the term budget).
Guard guard_of(prove::Limit limit) {
  switch (limit) {
  case prove::Limit::TermBudget:
    return Guard::TermBudget;
  case prove::Limit::ENodeBudget:
    return Guard::ENodeBudget;
  case prove::Limit::SaturationTime:
    return Guard::SaturationTimeLimit;
  case prove::Limit::None:
  case prove::Limit::Z3TranslationSize:
    break;
  }
  return Guard::None;
}

} // namespace

EntryResult prove_equivalence_entry(const launch::ManifestEntry& entry, exec::KernelCache& kernels,
                                    const ProveOptions& options) {
  const auto start = Clock::now();
  EntryResult result;
  result.name = entry.name;
  result.kind = launch::EntryKind::Equivalence;
  result.expected = entry.expected;
  auto finish = [&]() -> EntryResult {
    result.seconds = since(start);
    return std::move(result);
  };
  PreparedPair pair;
  if (!prepare_pair(entry, kernels, options.run, options.runs, pair, result))
    return finish();
  const symbolic::ExprStore& store = *pair.store;

  // ---- decide the elements
  const auto prove_start = Clock::now();
  prove::ElementProver prover(store, options, pair.store.get());
  prove::DecideOptions decide;
  decide.reuse_templates = options.reuse_templates;
  decide.stop_at_first_difference = options.stop_at_first_difference;
  decide.timeout_seconds = options.timeout_seconds;
  decide.entry_start = start;
  decide.cache = options.cache;
  decide.cancel = options.cancel;
  prove::ElementTally tally = prove::decide_elements(prover, store, pair.jobs, decide);
  result.elements = tally.counts;
  result.cache_hits = tally.cache_hits;
  result.counterexample = std::move(tally.counterexample);
  result.phases["prove"] = since(prove_start);
  {
    egraph::EGraph& g = prover.egraph().graph();
    g.rebuild();
    result.egraph = EgraphStats{g.num_nodes(), g.num_classes(), prover.egraph().analysis().merges(),
                                prover.egraph().saturations(), prover.egraph().rule_applications()};
  }

  // ---- domains: the optimized kernel must be defined wherever the reference is
  std::string domain_failure;
  if (result.elements.not_equivalent == 0 && !tally.stopped) {
    const auto domain_start = Clock::now();
    prove::DomainSide ref_side{"reference", {}, &*pair.ref_run},
        opt_side{"optimized", {}, &*pair.opt_run};
    for (const prove::ElementJob& job : pair.jobs) {
      ref_side.elements.emplace_back(job.name(), job.ref);
      opt_side.elements.emplace_back(job.name(), job.opt);
    }
    const prove::CanonicalOf canonical_of = [&](ExprId node) {
      return prover.egraph().canonical_form(node);
    };
    DomainSummary summary;
    auto check = [&](const prove::DomainSide& spec, const prove::DomainSide& checked) {
      prove::DomainOutcome d = prove::check_refinement(store, spec, checked, canonical_of,
                                                       pair.store.get(), &options.domain_prover);
      result.z3_calls += d.solver_queries;
      summary.assumptions += d.summary.assumptions;
      summary.obligations += d.summary.obligations;
      summary.by_sign += d.summary.by_sign;
      summary.by_guard += d.summary.by_guard;
      summary.by_assumption += d.summary.by_assumption;
      summary.by_z3 += d.summary.by_z3;
      summary.failed += d.summary.failed;
      summary.undecided += d.summary.undecided;
      if (d.counterexample && domain_failure.empty()) {
        domain_failure = d.failure_detail;
        result.counterexample = std::move(d.counterexample);
      } else if (!d.unknown_reason.empty() && !tally.unknown_reason) {
        tally.unknown_reason = d.unknown_reason;
      }
    };
    check(ref_side, opt_side);
    if (options.mutual) {
      summary.mutual = true;
      check(opt_side, ref_side);
    }
    result.domain = summary;
    result.phases["domains"] = since(domain_start);
  }

  if (!domain_failure.empty()) {
    result.verdict = Verdict::NotEquivalent;
    if (options.execute_counterexample)
      options.execute_counterexample(entry, *result.counterexample);
    result.detail = domain_failure;
  } else if (result.elements.not_equivalent > 0) {
    result.verdict = Verdict::NotEquivalent;
    if (options.execute_counterexample && result.counterexample->confirmed)
      options.execute_counterexample(entry, *result.counterexample);
    const auto& c = *result.counterexample;
    result.detail = fmt::format("{} differs: {} (reference) vs {} (optimized)", c.element,
                                c.reference_value, c.optimized_value);
  } else if (tally.unknown_reason) {
    result.verdict = Verdict::Unknown;
    result.guard = tally.timed_out ? Guard::TimeLimit : guard_of(tally.unknown_limit);
    result.detail = tally.unknown_element.empty()
                        ? *tally.unknown_reason
                        : fmt::format("{}: {}", tally.unknown_element, *tally.unknown_reason);
  } else {
    result.verdict = Verdict::Equivalent;
    result.detail = fmt::format(
        "{} elements equal over the reals ({} direct, {} by template reuse, {}{} by Z3, "
        "{} from the proof cache)",
        result.elements.total, result.elements.direct, result.elements.reused,
        result.elements.rules ? fmt::format("{} by rules, ", result.elements.rules) : "",
        result.elements.z3, result.elements.cached);
    if (result.domain && result.domain->obligations > 0) {
      const DomainSummary& d = *result.domain;
      result.detail += fmt::format("; {} domain condition{} of the optimized kernel discharged "
                                   "({} by signs, {} by guards, {} by the reference's, {} by Z3)",
                                   d.obligations, d.obligations == 1 ? "" : "s", d.by_sign,
                                   d.by_guard, d.by_assumption, d.by_z3);
    }
  }
  return finish();
}

} // namespace volta::entry
