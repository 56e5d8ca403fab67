#include "rules/algebra/canonical_analysis.hpp"

namespace volta::algebra {

using canonical::Form;
using egraph::EGraph;
using egraph::Id;

FormData CanonicalFormAnalysis::make_data(const EGraph& g, egraph::NodeView node) {
  kids_.clear();
  for (Id k : node.children) {
    const FormData& d = data(g.find(k));
    if (!d.known())
      return FormData{}; // a child without data yet (not reached: children exist first)
    kids_.push_back(d.form);
  }
  try {
    return FormData{nodes_.form(node.op, node.payload, kids_)};
  } catch (const canonical::Cancelled&) {
    // Not a fact about the value: an unknown form, under its own reason (the entry is over).
    return FormData{forms().undefined(canonical::Cancelled::kMessage)};
  } catch (const canonical::BudgetExceeded&) {
    budget_exceeded_ = true;
    return FormData{forms().over_budget()};
  }
}

egraph::MergeResult CanonicalFormAnalysis::merge_data(FormData& a, const FormData& b) {
  if (a.known() || !b.known())
    return {false, a.form != b.form};
  a = b;
  return {true, false};
}

bool CanonicalFormAnalysis::is_defined(const EGraph& g, Id id) const {
  const FormData& d = data(g.find(id));
  return d.known() && nodes_.forms().form(d.form).kind != Form::Kind::Undefined;
}

bool CanonicalFormAnalysis::holds(FormPredicate p, const EGraph& g, Id id) const {
  const FormData& d = data(g.find(id));
  return d.known() && algebra::holds(p, forms(), d.form, totality_);
}

void CanonicalFormAnalysis::modify(EGraph& g, Id cls) {
  cls = g.find(cls);
  if (data(cls).known() && data(cls).origin == FormData::kNoOrigin)
    data_for_update(cls).origin = cls; // right after make: this id was created with this form
  const FormData d = data(cls);
  if (!d.known() || forms().form(d.form).kind == Form::Kind::Undefined)
    return;
  if (reason_graph_ != &g) {
    reason_ = g.reason_id(kReason);
    reason_graph_ = &g;
  }
  const egraph::Justification why = egraph::Justification::named(reason_);
  canonical::Coef value;
  if (forms().constant_value(d.form, value)) {
    const Id c = g.add_constant(value.to_mpq());
    if (g.find(c) != g.find(cls)) {
      g.merge(d.origin, c, why);
      ++merges_;
    }
  }
  if (!merge_equal_forms_)
    return;
  auto [it, inserted] = by_form_.try_emplace(d.form, d.origin);
  if (!inserted && g.find(it->second) != g.find(cls)) {
    g.merge(it->second, d.origin, why);
    ++merges_;
  }
}

void CanonicalFormAnalysis::clear() {
  AnalysisOf<FormData>::clear();
  by_form_.clear();
  merges_ = 0;
  budget_exceeded_ = false;
  reason_graph_ = nullptr;
}

std::size_t CanonicalFormAnalysis::approx_bytes() const {
  return AnalysisOf<FormData>::approx_bytes() + by_form_.size() * 32 + totality_.approx_bytes();
}

} // namespace volta::algebra
