#pragma once
// ProofForest: the storage behind explanations (egg's explain mode). It keeps, for every id, the
// e-node exactly as it was added (children as given, not canonicalized, not sorted), a hashcons
// of those original nodes, and a forest over ids whose edges record why two ids were merged:
// by congruence (their original nodes have pairwise-equal children) or by a named step (a rewrite
// rule, "constant-fold", a user merge). Edges are only ever added between two different trees,
// so the path between two ids never changes once they are equal: explanations are well founded.
//
// Only an e-graph built with EGraphOptions::explanations owns one; otherwise nothing of this is
// allocated or touched.

#include <cstdint>
#include <optional>
#include <vector>

#include "egraph/enode.hpp"
#include "egraph/hashcons.hpp"

namespace volta::egraph {

struct Justification {
  enum class Kind : std::uint8_t { Congruence, Named };
  Kind kind = Kind::Congruence;
  std::uint32_t reason = 0; // EGraph::reason_name(reason) for Named
  static Justification congruence() { return {}; }
  static Justification named(std::uint32_t reason) { return {Kind::Named, reason}; }
};

class ProofForest {
public:
  struct Edge {
    Id parent = kNoId; // kNoId at a root
    Justification why;
    bool forward = true; // the step rewrites term(this id) into term(parent) in rule direction
  };

  // Records the original node of id `id` (ids are registered in increasing order).
  void register_node(Id id, NodeView original, std::uint64_t hash);
  std::optional<Id> find_exact(NodeView node, std::uint64_t hash) const;
  NodeView node(Id id) const {
    const Rec& r = nodes_[id];
    return {r.op, r.payload, {kids_.data() + r.first, r.len}};
  }
  std::size_t size() const { return nodes_.size(); }

  // Adds the edge a -- b (a and b in different trees): a's tree is re-rooted at a, then a is
  // hung below b. `why` justifies rewriting term(a) into term(b).
  void add_edge(Id a, Id b, Justification why);
  const Edge& edge(Id id) const { return edges_[id]; }

  std::size_t approx_bytes() const {
    return nodes_.capacity() * sizeof(Rec) + kids_.capacity() * sizeof(Id) +
           edges_.capacity() * sizeof(Edge) + memo_.capacity_bytes();
  }

  static std::uint64_t hash_node(NodeView n);

private:
  struct Rec {
    Payload payload = 0;
    std::uint32_t first = 0, len = 0;
    OpId op = 0;
  };
  std::vector<Rec> nodes_;
  std::vector<Id> kids_;
  std::vector<Edge> edges_;
  Hashcons memo_;
};

} // namespace volta::egraph
