// Puts expression-DAG nodes (engine/symbolic) into the shared e-graph over the ML language
// (rules/algebra/ml_language.hpp), both kernels and all elements of an entry into one e-graph, so
// that what they share (a softmax row's exponentials, the inputs) is one class.
//
// The DAG is copied node for node, with two exceptions that keep reductions flat:
//  * chains of single-use +, -, neg, fma and constant scalings become one n-ary sum: a - b is
//    (+ a (neg b)), fma(a, b, c) is (+ (* a b) c), k·x is (* k x); chains of single-use
//    multiplications, maxima and minima likewise become one n-ary node. Nodes with several
//    parents (and roots) get a class of their own, which is also where additions are memoized,
//    so a K-step fma reduction costs O(K log K), not O(K²) (docs/architecture.md, "Proving");
//  * values the algebra does not model (uninitialized, an atomic's result, bits, bit-level
//    operations) become `opaque` leaves, one per DAG node, with the reason kept for reports.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "egraph/egraph.hpp"
#include "engine/symbolic/bit_equality.hpp"
#include "engine/symbolic/expr_store.hpp"
#include "engine/symbolic/sign_analysis.hpp"
#include "rules/algebra/ml_language.hpp"

namespace volta::prove {

class EgraphBridge {
public:
  EgraphBridge(const symbolic::ExprStore& store, algebra::MlLanguage& ml, egraph::EGraph& g);

  // Counts parents over the DAG below `roots` (call it for each element before adding it;
  // counts accumulate, which only adds sharing points).
  void count_parents(const std::vector<symbolic::ExprId>& roots);
  // The e-graph id of a DAG node (adds what is missing). Throws std::length_error when the
  // DAG is nested too deeply to walk.
  egraph::Id add(symbolic::ExprId node);

  // Why an opaque leaf is outside the algebra (the payload of its `opaque` node).
  std::string opaque_reason(egraph::Payload payload) const;
  // E-nodes requested so far (new or already present).
  size_t nodes_added() const { return added_; }

private:
  struct Part {
    symbolic::Rational scale;
    symbolic::ExprId a = 0;
    symbolic::ExprId b = 0; // nonzero: the product a*b
  };
  egraph::Id compute(symbolic::ExprId node);
  egraph::Id leaf(symbolic::ExprId node);
  egraph::Id sum_of(symbolic::ExprId node);
  egraph::Id product_of(symbolic::ExprId node);
  void collect_factors(symbolic::ExprId root, bool expand_root, std::vector<egraph::Id>& factors);
  egraph::Id extremum_of(symbolic::ExprId node, bool is_max);
  egraph::Id opaque(symbolic::ExprId node, std::string reason);
  egraph::Id unary(egraph::OpId op, symbolic::ExprId child);
  // The ML operator of a DAG operator that has an ML word (ops.def's ml column).
  egraph::OpId ml_op(symbolic::Op op) const;
  bool expandable(symbolic::ExprId id, symbolic::ExprId root) const;
  bool shared(symbolic::ExprId node) const;

  const symbolic::ExprStore& store_;
  symbolic::SignAnalysis signs_{store_};
  // Opaque leaves are one per IEEE computation, not per node (opaque()).
  symbolic::BitEquality bits_{store_};
  std::unordered_map<uint32_t, symbolic::ExprId> opaque_of_class_;
  algebra::MlLanguage& ml_;
  egraph::EGraph& g_;
  std::array<egraph::OpId, symbolic::kOpCount> ml_ops_{}; // by DAG operator, see ml_op
  // Per node id: a saturating parent count and the visit stamp of count_parents, in pages
  // created on first touch. The ids span the whole store (tens of millions on a large grid)
  // while the elements proved one by one reach a few thousand nodes: flat arrays of the store's
  // size cost a zeroing of hundreds of megabytes per entry.
  struct CountPage {
    static constexpr unsigned kBits = 12;
    uint8_t parents[1u << kBits] = {};
    uint32_t seen[1u << kBits] = {};
  };
  std::vector<std::unique_ptr<CountPage>> count_pages_;
  CountPage& count_page(symbolic::ExprId id);
  uint32_t visit_ = 0;
  std::unordered_map<symbolic::ExprId, egraph::Id> memo_;
  std::unordered_map<egraph::Payload, std::string> opaque_reasons_;
  int depth_ = 0;
  size_t added_ = 0;
};

} // namespace volta::prove
