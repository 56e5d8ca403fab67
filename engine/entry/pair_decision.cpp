#include "engine/entry/pair_decision.hpp"

#include <fmt/format.h>
#include <unordered_map>

#include "engine/entry/undecided_element.hpp"
#include "engine/entry_progress.hpp"
#include "engine/prove/templates.hpp"

namespace volta::entry {

using Clock = std::chrono::steady_clock;
using symbolic::ExprId;

namespace {

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void add_domains(const DomainSummary& d, DomainSummary& into) {
  into.assumptions += d.assumptions;
  into.obligations += d.obligations;
  into.by_sign += d.by_sign;
  into.by_guard += d.by_guard;
  into.by_assumption += d.by_assumption;
  into.by_z3 += d.by_z3;
  into.failed += d.failed;
  into.undecided += d.undecided;
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

// A domain query up to a one-to-one renaming of its input elements: template_key (structure,
// sharing, constants, leaves numbered by first occurrence) and, in the same order, the array
// (or parameter) of each leaf, so that a renaming never crosses arrays, whose element types
// differ.
std::string domain_query_key(const symbolic::ExprStore& store, ExprId query) {
  std::string key = prove::template_key(store, query, query);
  std::unordered_map<ExprId, bool> seen;
  std::vector<ExprId> stack{query};
  while (!stack.empty()) {
    const ExprId id = stack.back();
    stack.pop_back();
    if (!seen.emplace(id, true).second)
      continue;
    const symbolic::Node& n = store.node(id);
    if (n.op == symbolic::Op::Input || n.op == symbolic::Op::Param) {
      key += fmt::format("|{}:{}", static_cast<int>(n.op), n.a);
      continue;
    }
    const ExprId kids[3] = {n.a, n.b, n.c};
    for (int i = symbolic::child_count(n.op) - 1; i >= 0; --i) {
      if (kids[i] != symbolic::kNoExpr)
        stack.push_back(kids[i]);
    }
  }
  return key;
}

} // namespace

PairDecision decide_pair(PreparedPair& pair, const ProveOptions& options,
                         Clock::time_point entry_start, EntryResult& result) {
  const symbolic::ExprStore& store = *pair.store;
  PairDecision decision;

  // ---- the elements
  const auto prove_start = Clock::now();
  // A difference counts only where the reference is defined: its assumptions, over every
  // element and branch, are checked at each point a counterexample is claimed at.
  prove::DomainSide ref_side{"reference", {}, &*pair.ref_run},
      opt_side{"optimized", {}, &*pair.opt_run};
  for (const prove::ElementJob& job : pair.jobs) {
    ref_side.elements.emplace_back(job.name(), job.ref);
    opt_side.elements.emplace_back(job.name(), job.opt);
  }
  const prove::SpecificationDomain reference_domain(store, ref_side);
  prove::ElementOptions element_options = options;
  element_options.specification = &reference_domain;
  prove::ElementProver prover(store, element_options, pair.store.get());
  prove::DecideOptions decide;
  decide.reuse_templates = options.reuse_templates;
  decide.stop_at_first_difference = options.stop_at_first_difference;
  decide.timeout_seconds = options.timeout_seconds;
  decide.entry_start = entry_start;
  decide.cache = options.cache;
  decide.cancel = options.cancel;
  decide.stop_at_first_unknown = options.stop_at_first_unknown;
  report_progress("proving", 0, pair.jobs.size());
  prove::ElementTally& tally = decision.tally;
  tally = prove::decide_elements(prover, store, pair.jobs, decide);
  result.elements += tally.counts;
  result.cache_hits += tally.cache_hits;
  if (tally.counterexample)
    result.counterexample = tally.counterexample;
  if (tally.unknown_reason && !tally.unknown_element.empty() && tally.counts.not_equivalent == 0)
    result.undecided = describe_undecided(store, prover, tally, options);
  result.phases["prove"] += since(prove_start);
  {
    egraph::EGraph& g = prover.egraph().graph();
    g.rebuild();
    EgraphStats& e = result.egraph ? *result.egraph : result.egraph.emplace();
    e.nodes += g.num_nodes();
    e.classes += g.num_classes();
    e.canonical_merges += prover.egraph().analysis().merges();
    e.saturations += prover.egraph().saturations();
    e.rule_applications += prover.egraph().rule_applications();
  }
  // (A time limit reached among the elements ends the entry UNKNOWN: no domain condition is
  // looked at past it.)
  if (tally.counts.not_equivalent != 0 || tally.stopped || tally.timed_out)
    return decision;

  // ---- domains: the optimized kernel must be defined wherever the reference is
  report_progress("domains");
  const auto domain_start = Clock::now();
  const prove::CanonicalOf canonical_of = [&](ExprId node) {
    return prover.egraph().canonical_form(node);
  };
  DomainSummary summary = result.domain.value_or(DomainSummary{});
  // The entry's guards hold here too: once its time is up (or it is cancelled) every query
  // left is undecided, and the entry UNKNOWN with that reason (one query of 192 per-thread
  // domain conditions at a time would otherwise run on past the limit: pair fuzzer 11:35000).
  const auto out_of_time = [&] {
    return (options.timeout_seconds > 0 && since(entry_start) > options.timeout_seconds) ||
           (options.cancel != nullptr && options.cancel->load());
  };
  bool stopped_by_time = false;
  // One answer per query template: each thread's domain condition is usually one query up to
  // the input elements it names (pair fuzzer 11:32488: 96 queries of one shape), and a
  // condition that holds (or fails) for distinct symbols does so under any one-to-one renaming
  // of them within the same arrays.
  std::unordered_map<std::string, bool> answered;
  prove::DomainProver bounded;
  if (options.domain_prover) {
    bounded = [&](const symbolic::ExprStore& s, ExprId query) -> std::optional<bool> {
      if (out_of_time()) {
        stopped_by_time = true;
        return std::nullopt;
      }
      const std::string key = domain_query_key(s, query);
      if (auto it = answered.find(key); it != answered.end())
        return it->second;
      const std::optional<bool> answer = options.domain_prover(s, query);
      if (answer)
        answered.emplace(key, *answer);
      return answer;
    };
  }
  const std::function<bool()> stop = [&] { return out_of_time(); };
  auto check = [&](const prove::DomainSide& spec, const prove::DomainSide& checked) {
    prove::DomainOutcome d = prove::check_refinement(store, spec, checked, canonical_of,
                                                     pair.store.get(), &bounded, &stop);
    stopped_by_time = stopped_by_time || d.stopped;
    result.z3_calls += d.solver_queries;
    add_domains(d.summary, summary);
    if (!d.vacuous_reason.empty() && !decision.domain_unknown) {
      // Before a refuted obligation too: no input is a counterexample to a specification that
      // is defined on none.
      decision.domain_unknown = d.vacuous_reason;
      decision.vacuous = true;
    } else if (d.counterexample && decision.domain_failure.empty()) {
      decision.domain_failure = d.failure_detail;
      result.counterexample = std::move(d.counterexample);
    } else if (!d.unknown_reason.empty() && !decision.domain_unknown) {
      decision.domain_unknown = d.unknown_reason;
    }
  };
  check(ref_side, opt_side);
  if (options.mutual) {
    summary.mutual = true;
    check(opt_side, ref_side);
  }
  if (stopped_by_time && decision.domain_failure.empty() && !decision.vacuous) {
    decision.domain_unknown =
        options.cancel != nullptr && options.cancel->load()
            ? std::string("cancelled while checking domain conditions")
            : fmt::format("time limit of {}s reached while checking domain conditions",
                          options.timeout_seconds);
    decision.domain_timed_out = true;
  }
  result.domain = summary;
  result.phases["domains"] += since(domain_start);
  return decision;
}

void conclude(const launch::ManifestEntry& entry, const ProveOptions& options,
              const PairDecision& decision, Clock::time_point entry_start, EntryResult& result) {
  const prove::ElementTally& tally = decision.tally;
  WitnessSearchLimits limits;
  limits.cancel = options.cancel;
  if (options.timeout_seconds > 0)
    limits.deadline = entry_start + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(options.timeout_seconds));
  // An undecided domain condition leaves the entry UNKNOWN unless an element already did.
  const std::optional<std::string> unknown_reason =
      tally.unknown_reason ? tally.unknown_reason : decision.domain_unknown;
  if (!decision.domain_failure.empty()) {
    result.verdict = Verdict::NotEquivalent;
    if (options.execute_counterexample)
      options.execute_counterexample(entry, *result.counterexample, limits);
    result.detail = decision.domain_failure;
  } else if (result.elements.not_equivalent > 0) {
    result.verdict = Verdict::NotEquivalent;
    if (options.execute_counterexample && result.counterexample->confirmed)
      options.execute_counterexample(entry, *result.counterexample, limits);
    const auto& c = *result.counterexample;
    result.detail = fmt::format("{} differs: {} (reference) vs {} (optimized)", c.element,
                                c.reference_value, c.optimized_value);
  } else if (unknown_reason) {
    result.verdict = Verdict::Unknown;
    result.guard = tally.timed_out || (!tally.unknown_reason && decision.domain_timed_out)
                       ? Guard::TimeLimit
                       : guard_of(tally.unknown_limit);
    result.detail = tally.unknown_element.empty()
                        ? *unknown_reason
                        : fmt::format("{}: {}", tally.unknown_element, *unknown_reason);
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
}

} // namespace volta::entry
