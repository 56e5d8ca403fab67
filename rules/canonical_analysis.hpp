#pragma once
// The canonical-form e-class analysis: every e-class of the shared e-graph carries a canonical
// form of the exp-polynomial class (rules/canonical/), computed from its nodes' children, and
// classes whose forms coincide are merged (domain.md §4: two values of the class are equal over
// the reals iff their canonical forms are). This is how the e-graph decides the paper's class
// without a rule search and without Z3: both kernels' roots of an output element land in one
// class as soon as their forms agree.
//
//   make    the form of the new node from its children's forms (rules/node_forms.hpp)
//   merge   a class keeps the lighter of its forms (CanonicalForms::weight; ties: older), so that
//           a rule that simplifies a subterm (sqrt(x)·sqrt(x) → x) also simplifies the forms
//           of its parents; the e-graph then re-makes the parents
//   modify  a constant form adds the constant's node to the class (so that rules mentioning 0
//           or 1 match); every form a class ever had is indexed, and a class whose form is
//           already indexed is merged with that class under the reason "canonical-form"
//
// Undefined forms (opaque values, bit-level operations, inf − inf) are never indexed: two
// unknown values are not equal because both are unknown. A form past the term budget is
// Undefined with the budget as its reason.
#include "egraph/analysis.hpp"
#include "egraph/egraph.hpp"
#include "rules/form_predicates.hpp"
#include "rules/node_forms.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace volta::rules {

struct FormData {
  static constexpr canonical::Id kNone = ~canonical::Id{0};
  canonical::Id form = kNone;
  bool known() const { return form != kNone; }
};

class CanonicalFormAnalysis : public egraph::AnalysisOf<FormData> {
public:
  static constexpr std::string_view kReason = "canonical-form";

  CanonicalFormAnalysis(const MlLanguage& ml, canonical::CanonicalForms& forms)
      : nodes_(ml, forms), ml_(ml) {}
  std::string_view name() const override { return "canonical-form"; }

  NodeForms& node_forms() { return nodes_; }
  canonical::CanonicalForms& forms() { return nodes_.forms(); }
  const canonical::CanonicalForms& forms() const { return nodes_.forms(); }

  // The form of the class of `id` (kNone before the class has data).
  canonical::Id form(const egraph::EGraph& g, egraph::Id id) const {
    return data(g.find(id)).form;
  }
  bool is_defined(const egraph::EGraph& g, egraph::Id id) const;
  bool holds(FormPredicate p, const egraph::EGraph& g, egraph::Id id) const;

  std::size_t merges() const { return merges_; }
  bool budget_exceeded() const { return budget_exceeded_; }

  void modify(egraph::EGraph& g, egraph::Id cls) override;
  void clear() override;
  std::size_t approx_bytes() const override;

protected:
  FormData make_data(const egraph::EGraph& g, egraph::NodeView node) override;
  egraph::MergeResult merge_data(FormData& a, const FormData& b) override;

private:
  NodeForms nodes_;
  const MlLanguage& ml_;
  std::unordered_map<canonical::Id, egraph::Id> by_form_;
  std::vector<canonical::Id> kids_;
  std::size_t merges_ = 0;
  bool budget_exceeded_ = false;
  std::uint32_t reason_ = 0;
  const egraph::EGraph* reason_graph_ = nullptr;
};

} // namespace volta::rules
