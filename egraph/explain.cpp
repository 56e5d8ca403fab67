#include "egraph/explain.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "egraph/sexpr.hpp"

namespace volta::egraph {

namespace {

class Explainer {
public:
  Explainer(const EGraph& g, Explanation& out)
      : g_(g), pf_(*g.proof_forest()), lang_(g.language()), out_(out) {}

  const TreeTerm& term(Id id) {
    if (auto it = cache_.find(id); it != cache_.end())
      return it->second;
    const NodeView v = pf_.node(id);
    TreeTerm t{v.op, v.payload, {}};
    t.children.reserve(v.children.size());
    for (Id c : v.children)
      t.children.push_back(term(c));
    return cache_.emplace(id, std::move(t)).first->second;
  }

  void begin(const TreeTerm& start) {
    out_.start = start;
    current_ = start;
  }

  // Steps turning the current term into `target` by AC regrouping, if they differ.
  void normalize_to(const TreeTerm& target) {
    if (current_ == target)
      return;
    current_ = target;
    out_.steps.push_back({"ac-normalize", true, {}, current_});
  }

  // Precondition: subterm(current_, path) == term(a), and a, b are in one class.
  // Postcondition: subterm(current_, path) == term(b).
  void explain(Id a, Id b, TermPath& path) {
    if (a == b)
      return;
    // Ancestors of a, then walk up from b to the first common one.
    std::vector<Id> up_a;
    std::unordered_map<Id, std::size_t> index;
    for (Id x = a; x != kNoId; x = pf_.edge(x).parent) {
      index.emplace(x, up_a.size());
      up_a.push_back(x);
    }
    std::vector<Id> up_b;
    Id lca = b;
    while (!index.count(lca)) {
      up_b.push_back(lca);
      lca = pf_.edge(lca).parent;
    }
    for (std::size_t i = 0; i < index.at(lca); ++i) {
      const auto& e = pf_.edge(up_a[i]);
      step(up_a[i], up_a[i + 1], e.why, e.forward, path);
    }
    for (std::size_t i = up_b.size(); i-- > 0;) {
      const auto& e = pf_.edge(up_b[i]);
      step(e.parent, up_b[i], e.why, !e.forward, path);
    }
  }

private:
  void step(Id from, Id to, Justification why, bool forward, TermPath& path) {
    if (why.kind == Justification::Kind::Named) {
      subterm(current_, path) = term(to);
      out_.steps.push_back({g_.reason_name(why.reason), forward, path, current_});
      return;
    }
    // Congruence: same operator and payload, children pairwise equal (as multisets for AC).
    const NodeView x = pf_.node(from);
    const NodeView y = pf_.node(to);
    const std::vector<Id> xk(x.children.begin(), x.children.end());
    const std::vector<Id> yk(y.children.begin(), y.children.end());
    std::vector<std::size_t> xi(xk.size()), yi(yk.size());
    std::iota(xi.begin(), xi.end(), 0);
    std::iota(yi.begin(), yi.end(), 0);
    if (lang_.is_ac(x.op)) {
      // Pair the children by class (classes only ever merge, so the multisets of classes that
      // made the nodes congruent still agree), then reorder the subterm to the target's order.
      auto by_class = [&](const std::vector<Id>& k) {
        return [&](std::size_t i, std::size_t j) {
          const Id ci = g_.find(k[i]), cj = g_.find(k[j]);
          return ci != cj ? ci < cj : i < j;
        };
      };
      std::sort(xi.begin(), xi.end(), by_class(xk));
      std::sort(yi.begin(), yi.end(), by_class(yk));
      TreeTerm& sub = subterm(current_, path);
      std::vector<TreeTerm> reordered(sub.children.size());
      for (std::size_t k = 0; k < xi.size(); ++k)
        reordered[yi[k]] = sub.children[xi[k]];
      if (reordered != sub.children) {
        sub.children = std::move(reordered);
        out_.steps.push_back({"ac-normalize", true, path, current_});
      }
    }
    for (std::size_t k = 0; k < xi.size(); ++k) {
      path.push_back(static_cast<std::uint32_t>(yi[k]));
      explain(xk[xi[k]], yk[yi[k]], path);
      path.pop_back();
    }
  }

  const EGraph& g_;
  const ProofForest& pf_;
  const Language& lang_;
  Explanation& out_;
  TreeTerm current_;
  std::unordered_map<Id, TreeTerm> cache_;
};

void path_text(const TermPath& p, std::string& out) {
  if (p.empty()) {
    out += "root";
    return;
  }
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (i)
      out += '.';
    out += std::to_string(p[i]);
  }
}

} // namespace

std::string Explanation::to_string(const Language& lang) const {
  std::string out = to_sexpr(start, lang) + "\n";
  for (const auto& s : steps) {
    out += s.forward ? "  => [" : "  <= [";
    out += s.rule + " at ";
    path_text(s.path, out);
    out += "] " + to_sexpr(s.term, lang) + "\n";
  }
  return out;
}

TreeTerm explained_term(const EGraph& g, Id id) {
  Explanation scratch;
  Explainer ex(g, scratch);
  return ex.term(id);
}

std::optional<Explanation> explain_ids(const EGraph& g, Id a, Id b) {
  if (!g.explanations_enabled() || a >= g.num_ids() || b >= g.num_ids() || !g.is_equal(a, b))
    return std::nullopt;
  Explanation out;
  Explainer ex(g, out);
  ex.begin(ex.term(a));
  TermPath path;
  ex.explain(a, b, path);
  return out;
}

std::optional<Explanation> explain_equivalence(const EGraph& g, const Term& a, const Term& b) {
  if (!g.explanations_enabled())
    return std::nullopt;
  const auto ia = g.lookup_term_exact(a);
  const auto ib = g.lookup_term_exact(b);
  if (!ia || !ib || !g.is_equal(*ia, *ib))
    return std::nullopt;
  Explanation out;
  Explainer ex(g, out);
  // The terms as written may nest AC operators that insertion flattened.
  ex.begin(to_tree(a));
  ex.normalize_to(ex.term(*ia));
  TermPath path;
  ex.explain(*ia, *ib, path);
  ex.normalize_to(to_tree(b));
  return out;
}

} // namespace volta::egraph
