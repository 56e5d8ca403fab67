#pragma once
// The canonical form (rules/algebra/canonical/canonical_forms.hpp) of one node of the ML language
// from the forms of its children: the bridge between e-graph nodes and the exp-polynomial decision
// procedure. Used by the canonical-form e-class analysis, by the checker of "canonical-form"
// explanation steps (on whole terms) and by `volta-eg rules check`.
#include <functional>
#include <span>
#include <string>

#include "egraph/id.hpp"
#include "egraph/tree_term.hpp"
#include "rules/algebra/canonical/canonical_forms.hpp"
#include "rules/algebra/ml_language.hpp"

namespace volta::algebra {

class NodeForms {
public:
  // `lang` interns the payloads (constants, symbols) of the nodes given; it is `ml.lang` or a
  // copy of it with more payloads (an e-graph session's).
  NodeForms(const MlLanguage& ml, canonical::CanonicalForms& forms)
      : ml_(ml), lang_(ml.lang), forms_(forms) {}
  NodeForms(const MlLanguage& ml, const egraph::Language& lang, canonical::CanonicalForms& forms)
      : ml_(ml), lang_(lang), forms_(forms) {}

  // Why an `opaque` leaf (payload p) is outside the algebra, for UNKNOWN reasons.
  void set_opaque_reason(std::function<std::string(egraph::Payload)> reason) {
    opaque_reason_ = std::move(reason);
  }

  // Throws canonical::BudgetExceeded past the forms' term budget.
  canonical::Id form(egraph::OpId op, egraph::Payload payload,
                     std::span<const canonical::Id> children);
  // The form of a whole term, bottom-up.
  canonical::Id form_of_tree(const egraph::TreeTerm& t);

  canonical::CanonicalForms& forms() { return forms_; }
  const canonical::CanonicalForms& forms() const { return forms_; }
  const MlLanguage& ml() const { return ml_; }

private:
  canonical::Id unary_function(const char* name, canonical::Id arg);
  // Would a boolean operation of forms a and b expand past kBooleanTerms terms?
  bool product_too_large(canonical::Id a, canonical::Id b);
  static constexpr std::size_t kBooleanTerms = 256;

  const MlLanguage& ml_;
  const egraph::Language& lang_;
  canonical::CanonicalForms& forms_;
  std::function<std::string(egraph::Payload)> opaque_reason_;
};

} // namespace volta::algebra
