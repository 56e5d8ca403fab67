// Proofs of a rule instance for `volta-eg rules check`. A rule may take part in a proof of
// EQUIVALENT only when it is proved, never because random points agreed (random_points.hpp
// finds counterexamples; it cannot rule out one at x = 0 or x = -1e6). Two provers, each
// claiming the strict soundness of the instance: at every real point of its symbols that
// satisfies the rule's conditions, both sides are undefined, or both are defined and equal.
//
//   by Z3            over the instance whose variables without a `total` condition are
//                    quotients n/d of fresh symbols (undefined where d = 0): the Z3 fallback's
//                    EQUIVALENT (engine/smt/z3_fallback.hpp, docs/smt.md) is exactly that claim,
//                    with the conditions as hypotheses (select(cond, side, 0) on both sides);
//   by the canonical forms
//                    over the instance whose variables are plain symbols, when both sides are
//                    built from strict total operators only (every division by a term that is
//                    itself such and whose form is positive; no sqrt, rsqrt, log2, select, ±inf)
//                    and name the same variables that may be undefined: then each side is
//                    defined exactly where those variables are, and equal canonical forms make
//                    the values equal there.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "engine/prove/element_prover.hpp"
#include "engine/rules_check/rule_instance.hpp"

namespace volta::rules_check {

struct InstanceProof {
  enum class Kind { Proved, Refuted, Open };
  Kind kind = Kind::Open;
  std::string detail; // Refuted: the counterexample; Open: why no proof
};

// `rule` names the query in the prover's messages.
InstanceProof prove_by_z3(const algebra::MlLanguage& ml, const egraph::TreeTerm& lhs,
                          const egraph::TreeTerm& rhs, const std::vector<Condition>& conditions,
                          const prove::FallbackProver& prover, const std::string& rule);

// `may_be_undefined`: the symbols that stand for variables without a `total` condition.
InstanceProof prove_by_forms(const algebra::MlLanguage& ml, const egraph::TreeTerm& lhs,
                             const egraph::TreeTerm& rhs,
                             const std::set<std::string>& may_be_undefined);

} // namespace volta::rules_check
