// The trusted axioms of `volta-eg rules check`: identities of the real functions that the
// checker applies to both sides of a rule instance before it proves the instance, because
// neither Z3 (tanh is an uninterpreted function there; ±inf is not translated) nor the
// canonical forms could use them otherwise. Each is true at every real point and keeps the
// domain: both sides are defined exactly where the operands are. docs/rules.md lists them, with
// the ground facts Z3 is given about exp, sqrt, tanh, sin, cos (docs/smt.md): together they are
// everything a rule's proof may assume beyond the field axioms of the reals.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "egraph/tree_term.hpp"
#include "rules/algebra/ml_language.hpp"

namespace volta::rules_check {

struct TrustedAxiom {
  const char* name;
  const char* statement; // as a rule would write it
  const char* why;       // why it is true, domains included
};

const std::vector<TrustedAxiom>& trusted_axioms();

// `t` with every axiom applied (left to right) wherever it matches, bottom-up. The names of the
// axioms applied are added to `used` (may be null). Interns the constants it needs in ml.lang.
egraph::TreeTerm apply_trusted_axioms(const egraph::TreeTerm& t, algebra::MlLanguage& ml,
                                      std::set<std::string>* used = nullptr);

} // namespace volta::rules_check
