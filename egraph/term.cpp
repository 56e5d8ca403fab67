#include "egraph/term.hpp"

#include <stdexcept>

namespace volta::egraph {

Term::Index Term::add(OpId op, std::span<const Index> children, Payload payload) {
  for (Index c : children)
    if (c >= nodes_.size())
      throw std::out_of_range("Term::add: child index refers to a later node");
  Node n{op, payload, static_cast<std::uint32_t>(kids_.size()),
         static_cast<std::uint32_t>(children.size())};
  kids_.insert(kids_.end(), children.begin(), children.end());
  nodes_.push_back(n);
  return static_cast<Index>(nodes_.size() - 1);
}

bool Term::same_tree(const Term& x, Index a, const Term& y, Index b) {
  std::vector<std::pair<Index, Index>> todo{{a, b}};
  while (!todo.empty()) {
    auto [i, j] = todo.back();
    todo.pop_back();
    if (&x == &y && i == j)
      continue;
    const Node& p = x.nodes_[i];
    const Node& q = y.nodes_[j];
    if (p.op != q.op || p.payload != q.payload || p.count != q.count)
      return false;
    for (std::uint32_t k = 0; k < p.count; ++k)
      todo.emplace_back(x.kids_[p.first + k], y.kids_[q.first + k]);
  }
  return true;
}

} // namespace volta::egraph
