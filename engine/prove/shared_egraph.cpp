#include "engine/prove/shared_egraph.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "egraph/explain_check.hpp"
#include "egraph/extract.hpp"
#include "egraph/runner.hpp"
#include "egraph/sexpr.hpp"
#include "rules/appliers.hpp"

namespace volta::prove {

using egraph::Id;
using Kind = SharedEgraph::FormCheck::Kind;

const rules::RuleLibrary& shipped_rule_library() {
  static const rules::RuleLibrary library = rules::RuleLibrary::shipped();
  return library;
}

SharedEgraph::SharedEgraph(const symbolic::ExprStore& store, const rules::RuleLibrary& library,
                           size_t term_budget, bool explanations)
    : library_(library), ml_(std::make_unique<algebra::MlLanguage>(library.ml())),
      graph_(std::make_unique<egraph::EGraph>(ml_->lang,
                                              egraph::EGraphOptions{.explanations = explanations})),
      bridge_(store, *ml_, *graph_) {
  forms_.set_term_budget(term_budget);
  analysis_ = &graph_->add_analysis<algebra::CanonicalFormAnalysis>(*ml_, forms_);
  analysis_->node_forms().set_opaque_reason(
      [this](egraph::Payload p) { return bridge_.opaque_reason(p); });
}

Id SharedEgraph::add(symbolic::ExprId node) {
  return bridge_.add(node);
}

std::optional<uint64_t> SharedEgraph::canonical_form(symbolic::ExprId node) {
  try {
    prepare({node});
    const Id id = add(node);
    graph_->rebuild();
    const canonical::Id f = analysis_->form(*graph_, id);
    if (f == algebra::FormData::kNone || forms_.is_undefined(f))
      return std::nullopt;
    return forms_.canonical(f);
  } catch (const std::exception&) { // too deep, or over the term budget: no form
    return std::nullopt;
  }
}

SharedEgraph::FormCheck SharedEgraph::check_forms(Id ref, Id opt) {
  FormCheck out;
  graph_->rebuild();
  if (graph_->is_equal(ref, opt)) {
    out.kind = Kind::Equal;
    out.decided_by = Decision::EGraph;
    return out;
  }
  const canonical::Id fr = analysis_->form(*graph_, ref), fo = analysis_->form(*graph_, opt);
  for (canonical::Id f : {fr, fo}) {
    if (f == algebra::FormData::kNone) {
      out.kind = Kind::Undefined;
      out.reason = "no canonical form";
      return out;
    }
    if (forms_.is_undefined(f)) {
      out.kind = Kind::Undefined;
      out.reason = forms_.form(f).reason;
      out.over_budget = forms_.is_over_budget(f);
      return out;
    }
  }
  try {
    Decision how = Decision::Undecided;
    if (forms_.equal(fr, fo)) {
      how = Decision::CanonicalForm;
    } else if ((!forms_.form(forms_.canonical(fr)).den.empty() ||
                !forms_.form(forms_.canonical(fo)).den.empty()) &&
               forms_.equal_by_cross_multiplication(fr, fo)) {
      how = Decision::CrossMultiplication;
    }
    if (how != Decision::Undecided) {
      // Between the ids whose own terms have the compared forms, so that the step replays.
      graph_->merge(analysis_->origin(*graph_, ref), analysis_->origin(*graph_, opt),
                    algebra::CanonicalFormAnalysis::kReason);
      graph_->rebuild();
      out.kind = Kind::Equal;
      out.decided_by = how;
    }
  } catch (const canonical::BudgetExceeded& e) {
    out.kind = Kind::Undefined;
    out.reason = e.what();
    out.over_budget = dynamic_cast<const canonical::Cancelled*>(&e) == nullptr;
  }
  return out;
}

namespace {
// Why a saturation stopped, in the words of the limits the user set.
std::string stop_text(const egraph::RunReport& report, const SaturationLimits& limits) {
  switch (report.stop_reason) {
  case egraph::StopReason::Saturated:
    return "saturated";
  case egraph::StopReason::IterationLimit:
    return fmt::format("iteration limit of {}", limits.iterations);
  case egraph::StopReason::NodeLimit:
    return fmt::format("e-node budget of {} new e-nodes", limits.new_nodes);
  case egraph::StopReason::TimeLimit:
    return fmt::format("time limit of {} s", limits.seconds);
  case egraph::StopReason::MemoryLimit:
    return "memory limit";
  case egraph::StopReason::Cancelled:
    return "cancelled";
  case egraph::StopReason::Other:
    break;
  }
  return report.stop_message;
}
} // namespace

SharedEgraph::Saturation SharedEgraph::saturate(Id ref, Id opt, const SaturationLimits& limits,
                                                const std::atomic<bool>* cancel) {
  Saturation out;
  ++saturations_;
  graph_->rebuild();
  egraph::RunnerOptions options;
  options.limits.iterations = limits.iterations;
  options.limits.nodes = graph_->num_nodes() + limits.new_nodes;
  options.limits.seconds = limits.seconds;
  options.threads = 1; // entries already run in parallel; one thread keeps runs reproducible
  options.focus = {ref, opt};
  options.cancel = cancel;
  egraph::Runner runner(*graph_, options);
  runner.add_hook([&](egraph::EGraph& g, size_t) -> std::optional<std::string> {
    if (g.is_equal(ref, opt))
      return std::string("the roots are equal");
    if (cancel != nullptr && cancel->load())
      return std::string("cancelled");
    return std::nullopt;
  });
  const egraph::RunReport report = runner.run(library_.rewrites());
  graph_->rebuild();
  out.stop = stop_text(report, limits);
  if (report.stop_reason == egraph::StopReason::NodeLimit)
    out.limit = Limit::ENodeBudget;
  else if (report.stop_reason == egraph::StopReason::TimeLimit)
    out.limit = Limit::SaturationTime;
  std::vector<std::pair<size_t, std::string>> used;
  for (const auto& r : report.rules) {
    if (r.applied > 0)
      used.emplace_back(r.applied, r.name);
    out.applied += r.applied;
  }
  rule_applications_ += out.applied;
  std::stable_sort(used.begin(), used.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [n, name] : used)
    out.rules_used.push_back(name);
  if (graph_->is_equal(ref, opt)) {
    out.equal = true;
    out.decided_by = Decision::Rules;
    return out;
  }
  // The rules may have merged the roots' classes with classes whose forms now coincide.
  const FormCheck again = check_forms(ref, opt);
  if (again.kind == Kind::Equal) {
    out.equal = true;
    out.decided_by = out.applied > 0 ? Decision::Rules : again.decided_by;
  }
  return out;
}

std::optional<egraph::Explanation> SharedEgraph::explain(Id ref, Id opt) const {
  if (!graph_->explanations_enabled() || !graph_->is_equal(ref, opt))
    return std::nullopt;
  return egraph::explain_ids(*graph_, ref, opt);
}

std::string SharedEgraph::check_explanation(const egraph::Explanation& e) const {
  egraph::ExplanationChecker checker(ml_->lang);
  checker.add_rules(library_.rewrites());
  checker.set_registry(&library_.registry());
  checker.add_verifier(std::string(algebra::CanonicalFormAnalysis::kReason),
                       rules::canonical_form_verifier(*ml_));
  checker.add_verifier("canonical-term", rules::canonical_form_verifier(*ml_));
  const egraph::CheckResult r = checker.check(e);
  if (!r.ok)
    return fmt::format("step {} does not check: {}", r.step + 1, r.message);
  return fmt::format("ok: {} steps replayed{}", e.steps.size(),
                     r.trusted ? fmt::format(", {} trusted", r.trusted) : std::string());
}

std::string SharedEgraph::print(Id id, size_t max_chars) const {
  graph_->rebuild();
  egraph::Extractor extractor(*graph_, egraph::ast_size());
  const egraph::Term t = extractor.extract(id);
  return egraph::to_sexpr(t, ml_->lang, t.root(), max_chars);
}

} // namespace volta::prove
