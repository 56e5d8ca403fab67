// Decides whether one element of the two kernels' outputs holds the same value, in a shared
// e-graph (prove/shared_egraph.hpp) that keeps every element an entry decides, so that the
// subterms elements share (a softmax row's exponentials) are added and canonicalized once:
//   1. the same DAG node, or concrete values with equal bytes     -> EQUIVALENT
//   2. the roots share an e-class: on insertion, by the canonical-form analysis (the
//      exp-polynomial class), or by cross-multiplication            -> EQUIVALENT
//   3. a point where the two values certainly differ                -> NOT_EQUIVALENT
//   4. by cases on comparisons the signs do not decide               -> EQUIVALENT
//   5. saturation with the rule library unifies the roots            -> EQUIVALENT (rules)
//   6. the fallback (Z3), when installed                             -> EQUIVALENT (z3), a
//                                                                      counterexample, or UNKNOWN
// Stores of different types are compared by their bytes; stores of one type by their values
// (floats over the reals, integers exactly).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/launch/launch_config.hpp"
#include "engine/prove/element_outcome.hpp"
#include "engine/prove/shared_egraph.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::prove {

class SpecificationDomain; // prove/domain_conditions.hpp

// The last resort for one element (Z3); installed by the layer that owns it. Returns nullopt
// when it cannot decide. A counterexample it returns lies in `specification`'s domain (when
// given: ElementOptions::specification).
using FallbackProver = std::function<std::optional<ElementOutcome>(
    const symbolic::ExprStore& store, symbolic::ExprId ref, symbolic::ExprId opt,
    const std::string& element, const SpecificationDomain* specification)>;

struct ElementOptions {
  size_t term_budget = 50'000'000; // new canonical-form terms per element
  int random_points = 4;
  // The rule library the shared e-graph is saturated with (null: the shipped library) and the
  // limits of one saturation; saturate = false skips the rule pass.
  const rules::RuleLibrary* rules = nullptr;
  bool saturate = true;
  SaturationLimits saturation;
  bool explanations = false; // record the e-graph's proof forest (volta-eg explain)
  FallbackProver fallback;   // may be empty
  std::atomic<bool>* cancel = nullptr;
  // The reference's domain (prove/domain_conditions.hpp): a difference is a counterexample only
  // at a point where the reference is defined. Null: no assumption is checked (a caller that
  // knows the reference has none, or a single query).
  const SpecificationDomain* specification = nullptr;
};

class ElementProver {
public:
  // `cases_store`: where a proof by cases builds its rewritten values (null: no such proofs).
  // `store` and `options` must outlive the prover.
  ElementProver(const symbolic::ExprStore& store, const ElementOptions& options,
                symbolic::ExprStore* cases_store = nullptr);
  ~ElementProver();
  ElementProver(const ElementProver&) = delete;
  ElementProver& operator=(const ElementProver&) = delete;

  // Canonicalizes the nodes below `roots` first (in parallel where they are independent).
  void prepare(const std::vector<symbolic::ExprId>& roots);
  // `ref_type` / `opt_type`: the type of the element's last store in each kernel (see
  // exec::OutputArray::store_types).
  ElementOutcome prove(symbolic::ExprId ref, symbolic::ExprId opt, const std::string& element,
                       launch::ElemType ref_type = launch::ElemType::F32,
                       launch::ElemType opt_type = launch::ElemType::F32);
  SharedEgraph& egraph();

private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Decides one element pair in a prover of its own; for tests and single queries.
ElementOutcome prove_element(const symbolic::ExprStore& store, symbolic::ExprId ref,
                             symbolic::ExprId opt, const std::string& element,
                             const ElementOptions& options);

} // namespace volta::prove
