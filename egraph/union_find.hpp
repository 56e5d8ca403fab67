#pragma once
// Union-find over e-class ids. The e-graph chooses which root survives a union (the class with
// more nodes+parents, ties to the smaller id: deterministic, and it moves the smaller lists), so
// link() takes the winner explicitly; find() halves paths when it may mutate.

#include <algorithm>
#include <vector>

#include "egraph/id.hpp"
#include "support/invariant.hpp"

namespace volta::egraph {

class UnionFind {
public:
  Id make_set() {
    const auto id = static_cast<Id>(parent_.size());
    parent_.push_back(id);
    return id;
  }
  std::size_t size() const { return parent_.size(); }
  void reserve(std::size_t n) {
    if (parent_.capacity() < n)
      parent_.reserve(std::max(n, 2 * parent_.capacity()));
  }
  void clear() { parent_.clear(); }

  // Read-only find: safe to call concurrently (the parallel search phase uses it).
  Id find(Id id) const {
    VOLTA_ASSERT(id < parent_.size(), "find of an id the union-find made");
    while (parent_[id] != id)
      id = parent_[id];
    return id;
  }
  // Find with path halving: every visited node is pointed at its grandparent.
  Id find_compress(Id id) {
    VOLTA_ASSERT(id < parent_.size(), "find of an id the union-find made");
    while (parent_[id] != id) {
      parent_[id] = parent_[parent_[id]];
      id = parent_[id];
    }
    return id;
  }
  bool is_root(Id id) const { return parent_[id] == id; }
  // Makes root `loser` point at root `winner`.
  void link(Id loser, Id winner) {
    VOLTA_ASSERT(loser < parent_.size() && winner < parent_.size(), "link of known ids");
    VOLTA_ASSERT(loser != winner && is_root(loser) && is_root(winner),
                 "link joins two distinct roots (a non-root would lose its class)");
    parent_[loser] = winner;
  }
  std::size_t capacity_bytes() const { return parent_.capacity() * sizeof(Id); }

private:
  std::vector<Id> parent_;
};

} // namespace volta::egraph
