#pragma once
// The canonical-form e-class analysis: every e-class of the shared e-graph carries a canonical
// form of the exp-polynomial class (rules/canonical/), computed from its nodes' children, and
// classes whose forms coincide are merged (docs/architecture.md, "Proving": two values of the class
// are equal over the reals iff their canonical forms are). This is how the e-graph decides the
// paper's class without a rule search and without Z3: both kernels' roots of an output element land
// in one class as soon as their forms agree.
//
//   make    the form of the new node from its children's forms (rules/algebra/node_forms.hpp)
//   merge   a class keeps the form of the class it merges into: every class's form is the form
//           of the term some id of it was created with (its `origin`), never one recomputed
//           from merges below it, so that each "canonical-form" merge can be replayed from the
//           two terms alone (rules/appliers.hpp, canonical_form_verifier); what merges below a
//           class change is seen by congruence and by the rules instead
//   modify  a constant form adds the constant's node to the class (so that rules mentioning 0
//           or 1 match); every class's creation form is indexed, and a new class whose form is
//           already indexed is merged, under the reason "canonical-form", with the id that
//           has that form
//
// Undefined forms (opaque values, bit-level operations, inf − inf) are never indexed: two
// unknown values are not equal because both are unknown. A form past the term budget is
// Undefined with the budget as its reason.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "egraph/analysis.hpp"
#include "egraph/egraph.hpp"
#include "rules/algebra/form_predicates.hpp"
#include "rules/algebra/node_forms.hpp"

namespace volta::algebra {

struct FormData {
  static constexpr canonical::Id kNone = ~canonical::Id{0};
  static constexpr egraph::Id kNoOrigin = ~egraph::Id{0};
  canonical::Id form = kNone;
  egraph::Id origin = kNoOrigin; // the id whose creation term has this form
  bool known() const { return form != kNone; }
};

class CanonicalFormAnalysis : public egraph::AnalysisOf<FormData> {
public:
  static constexpr std::string_view kReason = "canonical-form";

  CanonicalFormAnalysis(const MlLanguage& ml, canonical::CanonicalForms& forms)
      : nodes_(ml, forms), ml_(ml) {}
  std::string_view name() const override { return "canonical-form"; }

  NodeForms& node_forms() { return nodes_; }
  // Off: forms are computed but classes with equal forms stay apart (constants still get their
  // node). The rule checker uses it to see what an applier built, not what it equals.
  void set_merge_equal_forms(bool on) { merge_equal_forms_ = on; }
  canonical::CanonicalForms& forms() { return nodes_.forms(); }
  const canonical::CanonicalForms& forms() const { return nodes_.forms(); }

  // The form of the class of `id` (kNone before the class has data).
  canonical::Id form(const egraph::EGraph& g, egraph::Id id) const { return data(g.find(id)).form; }
  // The id of the class of `id` whose creation term has the class's form: what a merge
  // justified by the form must name, for the explanation to replay.
  egraph::Id origin(const egraph::EGraph& g, egraph::Id id) const {
    return data(g.find(id)).origin;
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
  // Conditions ask for the same forms again and again (every match of every rule): the answers
  // are kept, keyed by form id in forms(), which never change.
  mutable TotalityMemo totality_;
  std::size_t merges_ = 0;
  bool merge_equal_forms_ = true;
  bool budget_exceeded_ = false;
  std::uint32_t reason_ = 0;
  const egraph::EGraph* reason_graph_ = nullptr;
};

} // namespace volta::algebra
