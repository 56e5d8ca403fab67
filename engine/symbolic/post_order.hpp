// The one walk of an expression DAG in post order (children before their parent, each node
// once), without recursion: reduction chains are thousands of nodes deep, more than a stack
// holds. The analyses over the store (signs, evaluation, polynomial forms, rewriting by cases,
// tree sizes) are this walk with their own memo.
#pragma once

#include <utility>
#include <vector>

#include "engine/symbolic/expr_store.hpp"

namespace volta::symbolic {

// Walks the nodes below `root` that are not `done` yet. `descend(id, node)` says whether the
// walk looks below a node (false: the node is a leaf of this walk); `visit(id)` is called once
// every child the walk descends to is done, and must make `done(id)` true.
template <class Done, class Descend, class Visit>
void post_order(const ExprStore& store, ExprId root, Done&& done, Descend&& descend,
                Visit&& visit) {
  std::vector<std::pair<ExprId, bool>> stack{{root, false}};
  while (!stack.empty()) {
    const auto [id, expanded] = stack.back();
    stack.pop_back();
    if (done(id))
      continue;
    const Node& n = store.node(id);
    if (!expanded && descend(id, n)) {
      stack.emplace_back(id, true);
      const ExprId kids[3] = {n.a, n.b, n.c};
      for (int i = 0; i < child_count(n.op); ++i) {
        if (kids[i] != kNoExpr && !done(kids[i]))
          stack.emplace_back(kids[i], false);
      }
      continue;
    }
    visit(id);
  }
}

} // namespace volta::symbolic
