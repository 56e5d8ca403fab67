// The shared e-graph of one equivalence entry: both kernels' output DAGs, all elements, one
// e-graph over the ML language with the canonical-form analysis
// (rules/algebra/canonical_analysis.hpp). An element is EQUIVALENT when its two roots share an
// e-class:
//   1. on insertion: same e-node after flattening and sorting, or the same canonical form
//      (the analysis merges classes whose forms coincide);
//   2. canonical forms equal after expanding the numerators, or by cross-multiplication
//      (quotients factored differently): the roots are merged under "canonical-form";
//   3. saturation with the rule library (rules/library/*.rules and --rules files), searched only
//      below the element's two roots, within limits.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/explain.hpp"
#include "engine/prove/decision.hpp"
#include "engine/prove/egraph_bridge.hpp"
#include "engine/symbolic/expr_store.hpp"
#include "rules/algebra/canonical_analysis.hpp"
#include "rules/rule_library.hpp"

namespace volta::prove {

struct SaturationLimits {
  size_t iterations = 12;
  size_t new_nodes = 50'000; // e-nodes a saturation may add to the shared e-graph
  double seconds = 2.0;
};

// The shipped rule library, built once per process (thread-safe).
const rules::RuleLibrary& shipped_rule_library();

class SharedEgraph {
public:
  SharedEgraph(const symbolic::ExprStore& store, const rules::RuleLibrary& library,
               size_t term_budget, bool explanations = false);
  SharedEgraph(const SharedEgraph&) = delete;
  SharedEgraph& operator=(const SharedEgraph&) = delete;

  // Counts parents below an element's roots (before adding them).
  // Before the roots of one element (or one condition) are added: counts their parents for the
  // bridge and gives them a fresh canonical-form term budget.
  void prepare(const std::vector<symbolic::ExprId>& roots) {
    forms_.reset_term_count();
    bridge_.count_parents(roots);
  }
  // The entry's cancel flag, read by the canonical forms (every term built) and the rule
  // saturation (every match).
  void set_cancel(const std::atomic<bool>* cancel) { forms_.set_cancel(cancel); }
  // Adds a DAG node (throws std::length_error for a DAG too deep to walk).
  egraph::Id add(symbolic::ExprId node);

  struct FormCheck {
    enum class Kind { Equal, Different, Undefined };
    Kind kind = Kind::Different;
    // Equal: EGraph (one class on insertion), CanonicalForm or CrossMultiplication.
    Decision decided_by = Decision::Undecided;
    std::string reason;       // Undefined: why a form could not be built
    bool over_budget = false; // Undefined: because of the canonical forms' term budget
  };
  FormCheck check_forms(egraph::Id ref, egraph::Id opt);
  // The canonical form of a DAG node (its id in the canonical-form table), for matching domain
  // conditions on values written differently; nullopt without one.
  std::optional<uint64_t> canonical_form(symbolic::ExprId node);

  struct Saturation {
    bool equal = false;
    // Rules or, when no rule fired but the forms now coincide, the form check's decision.
    Decision decided_by = Decision::Undecided;
    std::string stop;                    // why the run ended, in words
    Limit limit = Limit::None;           // the user's limit that ended the run, if one did
    std::vector<std::string> rules_used; // rules that changed the e-graph, by applications
    size_t applied = 0;
  };
  Saturation saturate(egraph::Id ref, egraph::Id opt, const SaturationLimits& limits,
                      const std::atomic<bool>* cancel = nullptr);

  // The e-graph's rewrite chain between two equal ids (explanations on; nullopt otherwise).
  std::optional<egraph::Explanation> explain(egraph::Id ref, egraph::Id opt) const;
  // A checker's verdict on that chain: every step replayed (rule instances, AC normalizations,
  // canonical-form steps recomputed from the terms); "ok (N steps)" or the first bad step.
  std::string check_explanation(const egraph::Explanation& e) const;

  egraph::EGraph& graph() { return *graph_; }
  const algebra::MlLanguage& ml() const { return *ml_; }
  algebra::CanonicalFormAnalysis& analysis() { return *analysis_; }
  std::string print(egraph::Id id, size_t max_chars) const;

  size_t saturations() const { return saturations_; }
  size_t rule_applications() const { return rule_applications_; }

private:
  const rules::RuleLibrary& library_;
  std::unique_ptr<algebra::MlLanguage> ml_; // a copy of the library's: the e-graph interns into it
  canonical::CanonicalForms forms_;
  std::unique_ptr<egraph::EGraph> graph_;
  algebra::CanonicalFormAnalysis* analysis_ = nullptr;
  EgraphBridge bridge_;
  size_t saturations_ = 0;
  size_t rule_applications_ = 0;
};

} // namespace volta::prove
