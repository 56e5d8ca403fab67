#include "engine/session/entry_runner.hpp"

#include <algorithm>
#include <atomic>
#include <fmt/format.h>

#include "engine/batch/memory_limit.hpp"
#include "engine/emulate/counterexample_run.hpp"
#include "engine/emulate/cross_check_run.hpp"
#include "engine/entry/batch_runs.hpp"
#include "engine/smt/z3_fallback.hpp"

namespace volta::session {

namespace {

// The Z3 fallback under a term budget: an element refused as larger than the budget ends
// UNKNOWN naming the term budget, the guard that stopped it (the report's `guard` field).
prove::FallbackProver term_bounded(prove::FallbackProver inner, uint64_t max_terms) {
  return [inner = std::move(inner),
          max_terms](const symbolic::ExprStore& store, symbolic::ExprId ref, symbolic::ExprId opt,
                     const std::string& element, const prove::SpecificationDomain* specification) {
    auto outcome = inner(store, ref, opt, element, specification);
    if (outcome && outcome->kind == prove::ElementOutcome::Kind::Unknown &&
        outcome->limit == prove::Limit::Z3TranslationSize) {
      outcome->limit = prove::Limit::TermBudget;
      outcome->reason = fmt::format(
          "term budget of {} terms (--max-terms) exceeded: the element has more DAG nodes, not "
          "sent to Z3",
          max_terms);
    }
    return outcome;
  };
}

// What a kept result depends on beyond its kernels: the prover's options and the rule library,
// not the guards (a result a guard stopped is never kept).
std::string result_dependencies(const entry::ProveOptions& o, const Z3Settings& z3,
                                const std::string& rules_identity) {
  const entry::CrossCheckSettings& c = o.cross_check_settings;
  return fmt::format(
      "terms {} points {} reuse {} first-difference {} saturate {} iterations {} "
      "nodes {} seconds {} mutual {} z3 {} z3-ms {} z3-terms {} rules [{}] "
      "cross-check {} {} {} {} {} float-tolerance {} input-range {}",
      o.term_budget, o.random_points, o.reuse_templates, o.stop_at_first_difference, o.saturate,
      o.saturation.iterations, o.saturation.new_nodes, o.saturation.seconds, o.mutual, z3.enabled,
      z3.timeout_ms, z3.max_terms, o.rules ? rules_identity : "shipped", c.enabled, c.inputs,
      c.budget_share, c.min_budget_seconds, c.min_further_sets_seconds,
      o.float_tolerance ? fmt::format("{} {}", o.float_tolerance->rel, o.float_tolerance->abs)
                        : "none",
      o.input_range ? fmt::format("{} {}", o.input_range->first, o.input_range->second) : "none");
}

// The emulator cross-check as the settings ask for it: its time budget a share of the proof's.
entry::ProveOptions with_cross_check(entry::ProveOptions o) {
  const entry::CrossCheckSettings s = o.cross_check_settings;
  if (!s.enabled) {
    o.cross_check = nullptr;
    return o;
  }
  o.cross_check = [s](const launch::ManifestEntry& e, const exec::Program& reference,
                      const exec::Program& optimized, const CrossCheckRequest& request) {
    emulate::CrossCheckOptions options;
    options.inputs = s.inputs;
    if (s.budget_share > 0) {
      options.budget_seconds =
          std::max(s.min_budget_seconds, s.budget_share * request.proof_seconds);
      options.further_sets_budget_seconds =
          std::min(options.budget_seconds,
                   std::max(s.min_further_sets_seconds, s.budget_share * request.proof_seconds));
      // Only a wrong prediction meets it: a run that takes twice what was predicted stops.
      options.deadline_seconds = 2 * options.budget_seconds;
    }
    return emulate::cross_check(e, reference, optimized, request, options);
  };
  return o;
}

batch::EntryRunner runner_of(const entry::ProveOptions& prove_options, const Z3Settings& z3,
                             exec::KernelCache& kernels, batch::EntryCache* entries,
                             const std::string& rules_identity) {
  if (entries) {
    return batch::with_entry_cache(runner_of(prove_options, z3, kernels, nullptr, ""), *entries,
                                   prove_options.run,
                                   result_dependencies(prove_options, z3, rules_identity));
  }
  entry::CheckOptions check_options;
  check_options.run = prove_options.run;
  check_options.runs = prove_options.runs;
  return [prove_options = with_cross_check(prove_options), check_options, z3,
          &kernels](const launch::ManifestEntry& e, std::atomic<bool>& cancel) {
    if (e.kind == launch::EntryKind::RaceCheck) {
      entry::CheckOptions c = check_options;
      c.run.cancel = &cancel;
      return entry::check_race_entry(e, kernels, c);
    }
    std::atomic<uint64_t> element_queries{0}; // outlives `o`, whose fallback counts into it
    entry::ProveOptions o = prove_options;
    o.cancel = &cancel;
    o.run.cancel = &cancel;
    if (z3.enabled) {
      // Per entry: the fallback's queries stop with the entry's cancel flag; each check runs in
      // a child process, held to the memory limit where the address space can be limited.
      smt::Z3Options options;
      options.budget.cancel = &cancel;
      if (z3.max_memory_gib > 0 && batch::address_space_limits_work()) {
        options.budget.memory_mb = static_cast<unsigned>(std::max(1.0, z3.max_memory_gib * 1024));
      }
      // The term budget bounds the whole entry's work: Z3 is not given an element larger than
      // the canonical forms may grow (an element over the budget would otherwise go to Z3 and
      // spend its timeout there, element after element).
      if (z3.max_terms > 0)
        options.translate.max_nodes = std::min<uint64_t>(options.translate.max_nodes, z3.max_terms);
      o.domain_prover = smt::make_z3_domain_prover(z3.timeout_ms, options);
      // The prover counts the domain queries itself; the elements sent to Z3 are counted here.
      options.queries = &element_queries;
      o.fallback = smt::make_z3_fallback(z3.timeout_ms, options);
      if (z3.max_terms > 0)
        o.fallback = term_bounded(std::move(o.fallback), z3.max_terms);
    }
    o.execute_counterexample = emulate::execute_counterexample;
    entry::EntryResult result = entry::prove_equivalence_entry(e, kernels, o);
    result.z3_calls += element_queries.load();
    return result;
  };
}

} // namespace

batch::EntryRunner make_entry_runner(const entry::ProveOptions& prove_options, const Z3Settings& z3,
                                     exec::KernelCache& kernels, batch::EntryCache* entries,
                                     const std::string& rules_identity) {
  auto inner = runner_of(prove_options, z3, kernels, entries, rules_identity);
  entry::BatchRuns* shared = prove_options.batch_runs;
  if (shared == nullptr)
    return inner;
  // However the entry ends (a result, a kept result read back, an exception), the runs the
  // batch keeps for it are not kept for it any more.
  return [inner = std::move(inner), shared](const launch::ManifestEntry& e,
                                            std::atomic<bool>& cancel) {
    struct Release {
      entry::BatchRuns* shared;
      const launch::ManifestEntry& e;
      ~Release() { shared->finished(e); }
    } release{shared, e};
    return inner(e, cancel);
  };
}

} // namespace volta::session
