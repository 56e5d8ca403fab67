#include "egraph/extract.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace volta::egraph {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

CostFn ast_size() {
  return [](const EGraph&, NodeView, std::span<const double> kids) {
    double c = 1;
    for (double k : kids)
      c += k;
    return c;
  };
}

CostFn ast_depth() {
  return [](const EGraph&, NodeView, std::span<const double> kids) {
    double c = 0;
    for (double k : kids)
      c = std::max(c, k);
    return c + 1;
  };
}

Extractor::Extractor(const EGraph& g, CostFn cost)
    : g_(g), cost_(std::move(cost)), best_cost_(g.num_ids(), kInf), best_node_(g.num_ids(), kNoId) {
  if (!g.is_clean())
    throw std::logic_error("Extractor: rebuild the e-graph first");
  // Worklist over nodes: a node is (re)costed when it is first seen and whenever one of its
  // children's classes gets cheaper.
  std::deque<Id> work;
  std::vector<std::uint8_t> queued(g.num_ids(), 0);
  for (Id c : g.class_ids())
    for (Id n : g.class_nodes(c)) {
      work.push_back(n);
      queued[n] = 1;
    }
  std::vector<double> kid_costs;
  while (!work.empty()) {
    const Id n = work.front();
    work.pop_front();
    queued[n] = 0;
    if (!g.is_live_node(n))
      continue;
    const NodeView v = g.node(n);
    kid_costs.clear();
    bool finite = true;
    for (Id k : v.children) {
      const double c = best_cost_[g.find(k)];
      if (c == kInf) {
        finite = false;
        break;
      }
      kid_costs.push_back(c);
    }
    if (!finite)
      continue;
    const double c = cost_(g, v, kid_costs);
    const Id cls = g.find(n);
    if (c < best_cost_[cls]) {
      best_cost_[cls] = c;
      best_node_[cls] = n;
      for (Id p : g.eclass(cls).parents)
        if (!queued[p]) {
          queued[p] = 1;
          work.push_back(p);
        }
    }
  }
}

std::optional<double> Extractor::cost(Id id) const {
  const double c = best_cost_[g_.find(id)];
  if (c == kInf)
    return std::nullopt;
  return c;
}

Term Extractor::extract_many(std::span<const Id> ids, std::vector<Term::Index>& roots) const {
  Term out;
  std::unordered_map<Id, Term::Index> done;
  std::unordered_map<Id, bool> on_stack;
  // Iterative post-order over best nodes.
  struct Frame {
    Id cls;
    bool expanded;
  };
  roots.clear();
  for (Id root : ids) {
    std::vector<Frame> stack{{g_.find(root), false}};
    while (!stack.empty()) {
      Frame f = stack.back();
      stack.pop_back();
      if (done.count(f.cls))
        continue;
      const Id n = best_node_[f.cls];
      if (n == kNoId)
        throw std::runtime_error("Extractor: class " + std::to_string(f.cls) +
                                 " has no finite-cost term");
      const NodeView v = g_.node(n);
      if (!f.expanded) {
        if (on_stack[f.cls])
          throw std::runtime_error("Extractor: cyclic choice (cost function not strictly "
                                   "monotone)");
        on_stack[f.cls] = true;
        stack.push_back({f.cls, true});
        for (Id k : v.children)
          if (!done.count(g_.find(k)))
            stack.push_back({g_.find(k), false});
        continue;
      }
      std::vector<Term::Index> kids;
      kids.reserve(v.children.size());
      for (Id k : v.children)
        kids.push_back(done.at(g_.find(k)));
      done[f.cls] = out.add(v.op, kids, v.payload);
      on_stack[f.cls] = false;
    }
    roots.push_back(done.at(g_.find(root)));
  }
  return out;
}

Term Extractor::extract(Id id) const {
  std::vector<Term::Index> roots;
  const Id one[] = {id};
  // A single root finishes last in the post-order, so it is the term's root.
  return extract_many(one, roots);
}

} // namespace volta::egraph
