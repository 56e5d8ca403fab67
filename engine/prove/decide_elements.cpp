#include "engine/prove/decide_elements.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <memory>

#include "engine/entry_progress.hpp"
#include "engine/prove/templates.hpp"

namespace volta::prove {

using launch::ElemType;
using symbolic::ExprId;

namespace {

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Roots that are plain bits are read in a type that depends on the element (not on the
// template), and so are stores of different types: such elements are decided one by one.
bool decided_alone(const symbolic::ExprStore& store, const ElementJob& job) {
  return store.op(job.ref) == symbolic::Op::RawBits || store.op(job.opt) == symbolic::Op::RawBits ||
         job.ref_type != job.opt_type;
}

bool same_node(const ElementJob& job) {
  return job.ref == job.opt && job.ref_type == job.opt_type;
}

// The templates proved so far, most recently useful first. An element is matched against them
// (an exact structural match with a one-to-one renaming of input leaves, TemplateMatcher); one
// that matches none is proved on its own and, when EQUIVALENT, becomes a template. Windows of
// elements ahead are first matched against the templates known at the window's start on all
// cores (ParallelTemplateMatch); an element matched there reuses that template's outcome, any
// other is matched one by one. Only a speed-up: every template holds an EQUIVALENT outcome,
// whichever of them an element matches.
class TemplateReuse {
public:
  TemplateReuse(const symbolic::ExprStore& store, const std::vector<ElementJob>& jobs,
                std::atomic<bool>* cancel)
      : store_(store), jobs_(jobs), cancel_(cancel) {}

  // Matches the window that starts at element k, when element k is past the last window and
  // enough elements are left to be worth it.
  void look_ahead(size_t k) {
    if (templates_.empty() || k < window_start_ + window_match_.size() || jobs_.size() - k < 64)
      return;
    window_start_ = k;
    window_templates_.clear();
    std::vector<const TemplateMatcher*> matchers;
    for (size_t t = 0; t < templates_.size() && t < kMaxTemplatesTried; ++t) {
      window_templates_.push_back(
          Known{templates_[t].outcome, templates_[t].type, templates_[t].matcher.get()});
      matchers.push_back(templates_[t].matcher.get());
    }
    std::vector<std::pair<ExprId, ExprId>> roots;
    const size_t end = std::min(jobs_.size(), k + kWindow);
    for (size_t e = k; e < end; ++e)
      roots.emplace_back(jobs_[e].ref, jobs_[e].opt);
    window_match_ = parallel_match_.match(
        matchers, roots,
        [&](size_t e, size_t t) {
          const ElementJob& j = jobs_[k + e];
          return !same_node(j) && !decided_alone(store_, j) &&
                 window_templates_[t].type == j.ref_type;
        },
        cancel_);
    // A cancelled window left elements unmatched that may match: it tells nothing.
    if (cancel_ != nullptr && cancel_->load())
      window_match_.clear();
  }

  // The outcome the window gave element k, if it matched a template there.
  const ElementOutcome* window_outcome(size_t k) const {
    if (!in_window(k) || window_match_[k - window_start_] < 0)
      return nullptr;
    return &window_templates_[static_cast<size_t>(window_match_[k - window_start_])].outcome;
  }

  // The outcome of a template element k matches, trying only the templates its window did not
  // already try (matching is a function of the template and the element); the template matched
  // moves to the front.
  const ElementOutcome* match(size_t k) {
    const ElementJob& job = jobs_[k];
    const auto tried = [&](const TemplateMatcher* m) {
      return in_window(k) && std::any_of(window_templates_.begin(), window_templates_.end(),
                                         [&](const Known& known) { return known.matcher == m; });
    };
    for (size_t t = 0; t < templates_.size() && t < kMaxTemplatesTried; ++t) {
      if (templates_[t].type != job.ref_type || tried(templates_[t].matcher.get()) ||
          !templates_[t].matcher->matches(job.ref, job.opt))
        continue;
      std::rotate(templates_.begin(), templates_.begin() + static_cast<std::ptrdiff_t>(t),
                  templates_.begin() + static_cast<std::ptrdiff_t>(t) + 1);
      return &templates_.front().outcome;
    }
    return nullptr;
  }

  // An element proved EQUIVALENT becomes the newest template.
  void remember(const ElementJob& job, const ElementOutcome& outcome) {
    templates_.insert(templates_.begin(),
                      Template{std::make_unique<TemplateMatcher>(store_, job.ref, job.opt), outcome,
                               job.ref_type});
  }

private:
  static constexpr size_t kMaxTemplatesTried = 16;
  static constexpr size_t kWindow = 512;
  struct Template {
    std::unique_ptr<TemplateMatcher> matcher;
    ElementOutcome outcome;
    ElemType type; // of both stores: a proof holds for elements stored with the same type
  };
  struct Known {
    ElementOutcome outcome;
    ElemType type;
    const TemplateMatcher* matcher;
  };

  bool in_window(size_t k) const {
    return k >= window_start_ && k < window_start_ + window_match_.size();
  }

  const symbolic::ExprStore& store_;
  const std::vector<ElementJob>& jobs_;
  std::atomic<bool>* cancel_;
  std::vector<Template> templates_;
  ParallelTemplateMatch parallel_match_;
  std::vector<Known> window_templates_;
  std::vector<int> window_match_;
  size_t window_start_ = 0;
};

void tally_outcome(const ElementOutcome& outcome, bool reused, const ElementJob& job,
                   const DecideOptions& options, ElementTally& tally) {
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
      tally.unknown_ref = job.ref;
      tally.unknown_opt = job.opt;
    }
    if (options.stop_at_first_unknown)
      tally.stopped = true;
    break;
  }
}

} // namespace

std::string ElementJob::name() const {
  return fmt::format("{}[{}]", array, index);
}

ElementTally decide_elements(ElementProver& prover, const symbolic::ExprStore& store,
                             const std::vector<ElementJob>& jobs, const DecideOptions& options) {
  ElementTally tally;
  tally.counts.total = jobs.size();
  TemplateReuse reuse(store, jobs, options.cancel);
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
    const bool reusable = options.reuse_templates && !decided_alone(store, job);
    if (options.reuse_templates)
      reuse.look_ahead(k);
    const auto element_start = std::chrono::steady_clock::now();
    ElementOutcome outcome;
    const ElementOutcome* reused = options.reuse_templates ? reuse.window_outcome(k) : nullptr;
    if (reused == nullptr && same_node(job)) {
      outcome.kind = ElementOutcome::Kind::Equivalent;
      outcome.decided_by = Decision::SameNode;
    } else if (reused == nullptr) {
      if (reusable)
        reused = reuse.match(k);
      if (reused == nullptr) {
        // The proof cache, then the prover.
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
          if (options.cache && outcome.kind == ElementOutcome::Kind::Equivalent &&
              !outcome.uses_reference_domain)
            options.cache->insert(key);
        }
        if (reusable && outcome.kind == ElementOutcome::Kind::Equivalent &&
            !outcome.uses_reference_domain)
          reuse.remember(job, outcome);
      }
    }
    if (reused != nullptr)
      outcome = *reused;
    if (const double took = since(element_start); took > slowest_seconds) {
      slowest_seconds = took;
      slowest_element = job.name();
      slowest_how = reused != nullptr                               ? "template reuse"
                    : outcome.kind == ElementOutcome::Kind::Unknown ? "undecided: " + outcome.reason
                                                                    : outcome.how();
    }
    tally_outcome(outcome, reused != nullptr, job, options, tally);
    report_progress("proving", k + 1, jobs.size());
  }
  return tally;
}

} // namespace volta::prove
