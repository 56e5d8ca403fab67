#pragma once
// The named C++ appliers that rule files can use (`:apply NAME`), and the step verifier that
// replays canonical-form steps of explanations.
//
//   canonical-term   merges the matched class with the term of its canonical form (a sum of
//                    c · monomial · exp(polynomial) over a product of sums), so that patterns
//                    see the normalized shape: cancelled, expanded, exponentials fused
#include <optional>

#include "egraph/applier_registry.hpp"
#include "egraph/egraph.hpp"
#include "rules/algebra/canonical/canonical_forms.hpp"
#include "rules/algebra/ml_language.hpp"

namespace volta::rules {

egraph::ApplierRegistry ml_appliers(const algebra::MlLanguage& ml);

// The e-graph term of a form (nullopt for Undefined forms and atoms with no operator).
std::optional<egraph::Id> add_form_term(egraph::EGraph& g, const algebra::MlLanguage& ml,
                                        canonical::CanonicalForms& forms, canonical::Id form);

// Accepts a step whose two terms have the same canonical form (recomputed from the terms with
// fresh forms, independently of the e-graph): the check of "canonical-form" and
// "canonical-term" steps in explanations.
egraph::StepVerifier canonical_form_verifier(const algebra::MlLanguage& ml);

} // namespace volta::rules
