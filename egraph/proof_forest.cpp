#include "egraph/proof_forest.hpp"

#include <algorithm>

#include "egraph/hash.hpp"
#include "support/invariant.hpp"

namespace volta::egraph {

std::uint64_t ProofForest::hash_node(NodeView n) {
  return hash_finish(hash_ids(hash_combine(hash_combine(0x51ed27, n.op), n.payload), n.children));
}

void ProofForest::register_node(Id id, NodeView original, std::uint64_t hash) {
  if (nodes_.size() <= id) {
    nodes_.resize(id + 1);
    edges_.resize(id + 1);
  }
  VOLTA_ASSERT(!find_exact(original, hash), "an exact node is registered once");
  Rec r{original.payload, static_cast<std::uint32_t>(kids_.size()),
        static_cast<std::uint32_t>(original.children.size()), original.op};
  kids_.insert(kids_.end(), original.children.begin(), original.children.end());
  nodes_[id] = r;
  memo_.insert(hash, id);
  VOLTA_ASSERT(edges_[id].parent == kNoId, "a new node is the root of its own proof tree");
}

std::optional<Id> ProofForest::find_exact(NodeView n, std::uint64_t hash) const {
  return memo_.find(hash, [&](std::uint32_t e) {
    const Rec& r = nodes_[e];
    return r.op == n.op && r.payload == n.payload && r.len == n.children.size() &&
           std::equal(n.children.begin(), n.children.end(), kids_.begin() + r.first);
  });
}

void ProofForest::add_edge(Id a, Id b, Justification why) {
  VOLTA_ASSERT(a < edges_.size() && b < edges_.size(), "a proof edge joins registered ids");
  VOLTA_ASSERT(a != b, "a proof edge joins two distinct ids");
  // Re-root a's tree at a by reversing the edges on the path from a to its root.
  Id prev = kNoId;
  Edge carried{};
  for (Id cur = a; cur != kNoId;) {
    Edge next = edges_[cur];
    edges_[cur] = prev == kNoId ? Edge{} : Edge{prev, carried.why, !carried.forward};
    carried = next;
    prev = cur;
    cur = next.parent;
  }
  VOLTA_ASSERT(edges_[a].parent == kNoId, "re-rooting made a the root of its proof tree");
  edges_[a] = Edge{b, why, true};
}

} // namespace volta::egraph
