#pragma once
// Term: an expression as a vector of nodes in which children refer to earlier indices (egg's
// RecExpr). Shared subterms are stored once (a DAG); the last node is the root. Used to add whole
// expressions to an e-graph, and as the result of extraction.

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "egraph/id.hpp"

namespace volta::egraph {

class Term {
public:
  using Index = std::uint32_t;
  struct Node {
    OpId op = 0;
    Payload payload = 0;
    std::uint32_t first = 0; // into the child index array
    std::uint32_t count = 0;
  };

  // Appends a node; every child must be an existing index (throws std::out_of_range otherwise).
  Index add(OpId op, std::span<const Index> children, Payload payload = 0);
  Index add(OpId op, std::initializer_list<Index> children, Payload payload = 0) {
    return add(op, std::span<const Index>(children.begin(), children.size()), payload);
  }
  Index add_leaf(OpId op, Payload payload) { return add(op, std::span<const Index>{}, payload); }

  std::size_t size() const { return nodes_.size(); }
  bool empty() const { return nodes_.empty(); }
  Index root() const { return static_cast<Index>(nodes_.size() - 1); }
  const Node& node(Index i) const { return nodes_[i]; }
  OpId op(Index i) const { return nodes_[i].op; }
  Payload payload(Index i) const { return nodes_[i].payload; }
  std::span<const Index> children(Index i) const {
    return {kids_.data() + nodes_[i].first, nodes_[i].count};
  }

  // Structural equality of the two trees rooted at a and b (sharing is irrelevant).
  static bool same_tree(const Term& x, Index a, const Term& y, Index b);

private:
  std::vector<Node> nodes_;
  std::vector<Index> kids_;
};

} // namespace volta::egraph
