#pragma once
// ExplanationChecker: replays an Explanation step by step on terms, independently of the e-graph
// that produced it. For each step it checks that the previous and next terms differ only at the
// step's path, then, at that position:
//  - a pattern rule: its left-hand side matches the lhs-side term (the previous subterm going
//    forward, the next one going backward) and the instantiated right-hand side equals the other;
//  - "ac-normalize": both subterms have the same AC normal form (nested same-operator AC nodes
//    flattened, one-child AC nodes dropped, children sorted), recursively;
//  - a C++ applier rule: its left-hand side matches, and the step verifier registered for it
//    (ApplierRegistry) accepts the pair; without a verifier the step is counted as trusted;
//  - any other name: a verifier added with add_verifier (e.g. constant_fold_verifier), else
//    trusted.
// Rule conditions are not re-evaluated (they read e-graph state).

#include <map>
#include <span>
#include <string>

#include "egraph/applier_registry.hpp"
#include "egraph/constant_folding.hpp"
#include "egraph/explain.hpp"
#include "egraph/rewrite.hpp"

namespace volta::egraph {

struct CheckResult {
  bool ok = true;
  std::size_t step = 0; // index of the first bad step
  std::string message;
  std::size_t trusted = 0; // steps accepted without a check
  explicit operator bool() const { return ok; }
};

class ExplanationChecker {
public:
  explicit ExplanationChecker(const Language& lang) : lang_(lang) {}
  // The rules must outlive the checker.
  void add_rules(std::span<const Rewrite> rules);
  void add_verifier(std::string name, StepVerifier v);
  void set_registry(const ApplierRegistry* registry) { registry_ = registry; }

  // When given, also checks that the explanation starts at `from` and ends at `to`.
  CheckResult check(const Explanation& e, const TreeTerm* from = nullptr,
                    const TreeTerm* to = nullptr) const;

private:
  std::optional<std::string> check_step(const ExplanationStep& s, const TreeTerm& before,
                                        const TreeTerm& after, std::size_t& trusted) const;

  const Language& lang_;
  std::map<std::string, const Rewrite*, std::less<>> rules_;
  std::map<std::string, StepVerifier, std::less<>> verifiers_;
  const ApplierRegistry* registry_ = nullptr;
};

// AC normal form: flatten nested same-operator AC nodes, replace one-child AC nodes by the
// child, sort AC children by the TreeTerm order; recursively.
TreeTerm ac_normal_form(const Language& lang, const TreeTerm& t);

// Term-level pattern matching (positional; a rest variable takes the children between the
// pattern children before and after it) and right-hand-side instantiation (with the same
// pattern-level flattening as instantiate()).
struct TermBinding {
  std::vector<std::optional<TreeTerm>> vars;
  std::vector<std::vector<TreeTerm>> rests;
};
std::optional<TermBinding> match_term(const Pattern& p, const TreeTerm& t);
TreeTerm instantiate_term(const Pattern& p, const TermBinding& b);

// Accepts "constant-fold" steps whose lhs side is a ground term folding to the other side.
StepVerifier constant_fold_verifier(const ConstantFolding& cf);

} // namespace volta::egraph
