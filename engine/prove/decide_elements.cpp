#include "engine/prove/decide_elements.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <memory>

#include "engine/prove/templates.hpp"

namespace volta::prove {

using launch::ElemType;
using symbolic::ExprId;

namespace {

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

std::string ElementJob::name() const {
  return fmt::format("{}[{}]", array, index);
}

ElementTally decide_elements(ElementProver& prover, const symbolic::ExprStore& store,
                             const std::vector<ElementJob>& jobs, const DecideOptions& options) {
  ElementTally tally;
  // Templates proved so far, most recently useful first. An element is matched against them
  // (an exact structural match with a one-to-one renaming of input leaves); one that matches
  // none is proved on its own and becomes a template.
  struct Template {
    std::unique_ptr<TemplateMatcher> matcher;
    ElementOutcome outcome;
    ElemType type; // of both stores: a proof holds for elements stored with the same type
  };
  std::vector<Template> templates;
  constexpr size_t kMaxTemplatesTried = 16;
  // Windows of elements are first matched against the templates known at the window's start on
  // all cores (ParallelTemplateMatch); an element matched there reuses that template's outcome,
  // any other goes the sequential way below. Only a speed-up: a template holds an EQUIVALENT
  // outcome, whichever of them an element matches.
  constexpr size_t kWindow = 512;
  ParallelTemplateMatch parallel_match;
  struct Known {
    ElementOutcome outcome;
    ElemType type;
    const TemplateMatcher* matcher;
  };
  std::vector<Known> window_templates;
  std::vector<int> window_match;
  size_t window_start = 0;
  const auto reusable = [&](const ElementJob& job) {
    return options.reuse_templates && !(job.ref == job.opt && job.ref_type == job.opt_type) &&
           store.op(job.ref) != symbolic::Op::RawBits &&
           store.op(job.opt) != symbolic::Op::RawBits && job.ref_type == job.opt_type;
  };
  // The slowest element so far and how it was decided: what a time limit names as the prover's
  // work when it stops the loop.
  std::string slowest_element, slowest_how;
  double slowest_seconds = -1;
  for (size_t k = 0; k < jobs.size() && !tally.stopped; ++k) {
    if (options.timeout_seconds > 0 && since(options.entry_start) > options.timeout_seconds) {
      tally.unknown_reason = fmt::format("time limit of {}s reached after {} of {} elements",
                                         options.timeout_seconds, k, jobs.size());
      const std::string how = decided_breakdown(tally.counts);
      if (!how.empty())
        *tally.unknown_reason += " (" + how + ")";
      if (slowest_seconds >= 0)
        *tally.unknown_reason += fmt::format("; the slowest, {}, took {:.2f} s ({})",
                                             slowest_element, slowest_seconds, slowest_how);
      tally.timed_out = true;
      tally.counts.unknown += jobs.size() - k;
      break;
    }
    if (options.cancel && options.cancel->load()) {
      tally.unknown_reason = "cancelled";
      tally.counts.unknown += jobs.size() - k;
      break;
    }
    const ElementJob& job = jobs[k];
    if (options.reuse_templates && !templates.empty() && k >= window_start + window_match.size() &&
        jobs.size() - k >= 64) {
      window_start = k;
      window_templates.clear();
      std::vector<const TemplateMatcher*> matchers;
      for (size_t t = 0; t < templates.size() && t < kMaxTemplatesTried; ++t) {
        window_templates.push_back(
            Known{templates[t].outcome, templates[t].type, templates[t].matcher.get()});
        matchers.push_back(templates[t].matcher.get());
      }
      std::vector<std::pair<ExprId, ExprId>> roots;
      const size_t end = std::min(jobs.size(), k + kWindow);
      for (size_t e = k; e < end; ++e)
        roots.emplace_back(jobs[e].ref, jobs[e].opt);
      window_match = parallel_match.match(
          matchers, roots,
          [&](size_t e, size_t t) {
            const ElementJob& j = jobs[k + e];
            return reusable(j) && window_templates[t].type == j.ref_type;
          },
          options.cancel);
      // A cancelled window left elements unmatched that may match: it tells nothing.
      if (options.cancel != nullptr && options.cancel->load())
        window_match.clear();
    }
    const auto element_start = std::chrono::steady_clock::now();
    ElementOutcome outcome;
    bool reused = false;
    if (k >= window_start && k < window_start + window_match.size() &&
        window_match[k - window_start] >= 0) {
      outcome = window_templates[static_cast<size_t>(window_match[k - window_start])].outcome;
      reused = true;
    } else if (job.ref == job.opt && job.ref_type == job.opt_type) {
      outcome.kind = ElementOutcome::Kind::Equivalent;
      outcome.decided_by = Decision::SameNode;
    } else {
      // Roots that are plain bits are read in a type that depends on the element (not on the
      // template), and so are stores of different types: decided one by one, never reused.
      const bool bits_root = store.op(job.ref) == symbolic::Op::RawBits ||
                             store.op(job.opt) == symbolic::Op::RawBits ||
                             job.ref_type != job.opt_type;
      if (options.reuse_templates && !bits_root) {
        // A template of this element's window already failed to match it (matching is a
        // function of the template and the element): only newer ones are tried again.
        const bool in_window = k >= window_start && k < window_start + window_match.size();
        const auto tried = [&](const TemplateMatcher* m) {
          return in_window && std::any_of(window_templates.begin(), window_templates.end(),
                                          [&](const Known& known) { return known.matcher == m; });
        };
        for (size_t t = 0; t < templates.size() && t < kMaxTemplatesTried; ++t) {
          if (templates[t].type != job.ref_type || tried(templates[t].matcher.get()) ||
              !templates[t].matcher->matches(job.ref, job.opt))
            continue;
          outcome = templates[t].outcome;
          reused = true;
          std::rotate(templates.begin(), templates.begin() + static_cast<std::ptrdiff_t>(t),
                      templates.begin() + static_cast<std::ptrdiff_t>(t) + 1);
          break;
        }
      }
      if (!reused) {
        std::string key;
        if (options.cache) {
          key = template_key(store, job.ref, job.opt, job.ref_type, job.opt_type);
          if (options.cache->contains(key)) {
            outcome.kind = ElementOutcome::Kind::Equivalent;
            outcome.decided_by = Decision::Cache;
            ++tally.cache_hits;
          }
        }
        if (outcome.decided_by != Decision::Cache) {
          prover.prepare({job.ref, job.opt});
          outcome = prover.prove(job.ref, job.opt, job.name(), job.ref_type, job.opt_type);
          if (options.cache && outcome.kind == ElementOutcome::Kind::Equivalent)
            options.cache->insert(key);
        }
        if (options.reuse_templates && !bits_root &&
            outcome.kind == ElementOutcome::Kind::Equivalent) {
          templates.insert(templates.begin(),
                           Template{std::make_unique<TemplateMatcher>(store, job.ref, job.opt),
                                    outcome, job.ref_type});
        }
      }
    }
    if (const double took = since(element_start); took > slowest_seconds) {
      slowest_seconds = took;
      slowest_element = job.name();
      slowest_how = reused                                          ? "template reuse"
                    : outcome.kind == ElementOutcome::Kind::Unknown ? "undecided: " + outcome.reason
                                                                    : outcome.how();
    }
    switch (outcome.kind) {
    case ElementOutcome::Kind::Equivalent:
      if (reused) {
        ++tally.counts.reused;
      } else if (outcome.decided_by == Decision::Cache) {
        ++tally.counts.cached;
      } else if (outcome.decided_by == Decision::Z3) {
        ++tally.counts.z3;
      } else if (outcome.decided_by == Decision::Rules) {
        ++tally.counts.rules;
      } else {
        ++tally.counts.direct;
      }
      break;
    case ElementOutcome::Kind::NotEquivalent:
      ++tally.counts.not_equivalent;
      if (!tally.counterexample)
        tally.counterexample = outcome.counterexample;
      if (options.stop_at_first_difference)
        tally.stopped = true;
      break;
    case ElementOutcome::Kind::Unknown:
      ++tally.counts.unknown;
      if (!tally.unknown_reason) {
        tally.unknown_reason = outcome.reason;
        tally.unknown_element = job.name();
        tally.unknown_limit = outcome.limit;
      }
      break;
    }
  }
  return tally;
}

} // namespace volta::prove
