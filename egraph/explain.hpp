#pragma once
// Explanations: for two terms an e-graph (built with EGraphOptions::explanations) found equal,
// the chain of steps from one to the other. Each step rewrites the subterm at one position by one
// named rule, in one direction, and records the whole resulting term (egg's "flat" explanations).
// Congruence is not a step of its own: it unfolds into the steps that rewrite the children.
//
// Step names: a rewrite rule's name; "ac-normalize" (regrouping/reordering of AC operators, i.e.
// the flattening done on insertion and the reordering of an AC node's children that congruence
// of sorted multisets needs); "constant-fold" (a ground fold by ConstantFolding); the reason
// given to EGraph::merge for merges made by hand.

#include <optional>
#include <string>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/term.hpp"
#include "egraph/tree_term.hpp"

namespace volta::egraph {

struct ExplanationStep {
  std::string rule;    // rule or step name
  bool forward = true; // left-to-right (false: the rule's right side was rewritten to its left)
  TermPath path;       // position of the rewritten subterm in the previous term
  TreeTerm term;       // the whole term after the step
};

struct Explanation {
  TreeTerm start;
  std::vector<ExplanationStep> steps;
  const TreeTerm& end() const { return steps.empty() ? start : steps.back().term; }
  // One line per term: `(+ a b)`, then `  => [rule at 0.1] (+ a c)`, `  <= [...]` backwards.
  std::string to_string(const Language& lang) const;
};

// The term the e-graph's proof forest associates with an id (the node as added, recursively).
TreeTerm explained_term(const EGraph& g, Id id);

// nullopt when explanations are off, a term was never added, or the terms are not equal.
std::optional<Explanation> explain_equivalence(const EGraph& g, const Term& a, const Term& b);
std::optional<Explanation> explain_ids(const EGraph& g, Id a, Id b);

} // namespace volta::egraph
