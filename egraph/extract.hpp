#pragma once
// Extraction: the cheapest term represented by an e-class under a user cost function, computed
// greedily bottom-up (each class's cost is the minimum over its nodes of cost(node, best child
// costs)), as in egg's Extractor. Cost functions must be monotone and strictly greater than each
// child's cost (AstSize, AstDepth are); a choice cycle from a non-strict function is reported.

#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/term.hpp"

namespace volta::egraph {

using CostFn =
    std::function<double(const EGraph& g, NodeView node, std::span<const double> child_costs)>;

CostFn ast_size();  // 1 + sum of children (an AC node counts each element)
CostFn ast_depth(); // 1 + max of children

class Extractor {
public:
  // Needs a rebuilt e-graph; computes every class's best node up front.
  Extractor(const EGraph& g, CostFn cost);

  // nullopt when no finite-cost term exists (only cycles).
  std::optional<double> cost(Id id) const;
  Id best_node(Id id) const { return best_node_[g_.find(id)]; }
  // The best term (throws std::runtime_error when there is none).
  Term extract(Id id) const;
  // Several roots in one term with shared subterms; roots[i] is the index of ids[i].
  Term extract_many(std::span<const Id> ids, std::vector<Term::Index>& roots) const;

private:
  const EGraph& g_;
  CostFn cost_;
  std::vector<double> best_cost_;
  std::vector<Id> best_node_;
};

} // namespace volta::egraph
