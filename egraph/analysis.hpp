#pragma once
// E-class analyses (egg's Analysis): per-class data computed from e-nodes (make), combined when
// classes merge (merge), and allowed to change the e-graph (modify: add nodes, merge classes).
//
// Several analyses coexist: an e-graph holds a list of them, called in registration order, so an
// analysis may read the data of those registered before it (a canonical-form analysis can read
// constant folding's data). Implement AnalysisOf<Data> for the usual case; it stores one Data per
// class id.
//
// Contract with the e-graph:
//  - make(g, id, node): a node was created with a fresh class `id` (node children canonical).
//  - remake(g, cls, node): the data of a child of `node` (which lives in class `cls`) changed;
//    recompute the node's contribution and merge it into cls. True iff cls's data changed.
//  - merge(into, from): classes merged, `into` survives. Report which side's data changed: the
//    e-graph re-runs remake on the parents of every class whose view of the data changed.
//  - modify(g, cls): called right after make, and after the data of `cls` may have changed,
//    at a point where the e-graph is congruence-closed; it may add nodes and merge classes.
// All but modify must not change the e-graph. None is called concurrently.

#include <cstddef>
#include <string_view>
#include <vector>

#include "egraph/enode.hpp"
#include "egraph/id.hpp"

namespace volta::egraph {

class EGraph;

struct MergeResult {
  bool into_changed = false; // the surviving class's data differs from what it was
  bool from_changed = false; // the merged result differs from the absorbed class's data
};

class Analysis {
public:
  virtual ~Analysis() = default;
  virtual std::string_view name() const = 0;
  virtual void make(const EGraph& g, Id id, NodeView node) = 0;
  virtual bool remake(const EGraph& g, Id cls, NodeView node) = 0;
  virtual MergeResult merge(Id into, Id from) = 0;
  virtual void modify(EGraph& g, Id cls) {}
  virtual std::size_t approx_bytes() const { return 0; }
  // Forgets all class data (EGraph::clear).
  virtual void clear() = 0;
};

template <class Data>
class AnalysisOf : public Analysis {
public:
  // The data of a canonical class id.
  const Data& data(Id cls) const { return data_[cls]; }

  void make(const EGraph& g, Id id, NodeView node) final {
    if (data_.size() <= id)
      data_.resize(static_cast<std::size_t>(id) + 1);
    data_[id] = make_data(g, node);
  }
  bool remake(const EGraph& g, Id cls, NodeView node) final {
    Data fresh = make_data(g, node);
    return merge_data(data_[cls], fresh).into_changed;
  }
  MergeResult merge(Id into, Id from) final {
    MergeResult r = merge_data(data_[into], data_[from]);
    data_[from] = Data{}; // the absorbed class is never read again
    return r;
  }
  std::size_t approx_bytes() const override { return data_.capacity() * sizeof(Data); }
  void clear() override { data_.clear(); }

protected:
  // For modify(): annotate a class's data in place (the e-graph is not told of the change, so
  // only parts of the data that merge_data and make_data do not compare may change this way).
  Data& data_for_update(Id cls) { return data_[cls]; }
  virtual Data make_data(const EGraph& g, NodeView node) = 0;
  // Merges b into a; into_changed: a changed; from_changed: the result differs from b.
  virtual MergeResult merge_data(Data& a, const Data& b) = 0;

private:
  std::vector<Data> data_;
};

} // namespace volta::egraph
