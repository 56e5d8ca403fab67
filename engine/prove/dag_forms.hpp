// Canonical forms of expression-DAG nodes. Forms are memoized only at sharing points (nodes
// with several parents, and roots); chains of single-use additions and multiplications (a
// K-step fma reduction) are flattened and summed in one pass, so a reduction costs O(K log K),
// not O(K^2) (domain.md §4, cost traps).
#pragma once

#include <unordered_map>
#include <vector>

#include "engine/symbolic/expr_store.hpp"
#include "rules/canonical/canonical_forms.hpp"

namespace volta::prove {

class DagForms {
 public:
  DagForms(const symbolic::ExprStore& store, canonical::CanonicalForms& forms);

  // Counts parents over the DAG below `roots`; call it for each element before converting it
  // (counts accumulate over calls, which only adds memoization points).
  void count_parents(const std::vector<symbolic::ExprId>& roots);

  // The form of a node (throws canonical::BudgetExceeded when too large).
  canonical::Id form(symbolic::ExprId node);

  canonical::CanonicalForms& forms() { return forms_; }

 private:
  struct Part {
    canonical::Coef scale;
    symbolic::ExprId a = 0;
    symbolic::ExprId b = 0;  // nonzero: the product a*b
  };
  canonical::Id compute(symbolic::ExprId node);
  canonical::Id sum_of(symbolic::ExprId node);
  canonical::Id product_of(symbolic::ExprId node);
  canonical::Id extremum_of(symbolic::ExprId node, bool is_max);
  canonical::Id leaf(symbolic::ExprId node);
  bool shared(symbolic::ExprId node) const;
  bool is_const(symbolic::ExprId id) const { return store_.op(id) == symbolic::Op::Const; }

  const symbolic::ExprStore& store_;
  canonical::CanonicalForms& forms_;
  std::vector<uint8_t> parents_;  // saturating parent counts, by node id
  std::vector<uint32_t> seen_;    // visit stamps of count_parents, by node id
  uint32_t visit_ = 0;
  std::unordered_map<symbolic::ExprId, canonical::Id> memo_;
  int depth_ = 0;
};

}  // namespace volta::prove
