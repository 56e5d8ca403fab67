// Random property tests: after every rebuild the invariants hold, and the e-graph's equalities
// are exactly those of a naive congruence closure computed independently.

#include <map>
#include <random>

#include "test_util.hpp"

namespace volta::egraph {
namespace {

using testing::expect_invariants;

struct Lang {
  Language lang;
  OpId sym, f, g, add;
  Lang() {
    sym = lang.add_op("sym", 0, false, PayloadKind::Symbol);
    lang.set_symbol_op(sym);
    f = lang.add_op("f", 1);
    g = lang.add_op("g", 2);
    add = lang.add_op("+", kVariadic, true);
  }
};

// Naive congruence closure over flattened terms: every distinct subterm is a vertex; repeat
// "merge two vertices with the same operator and equal (multiset of, for AC) children" until
// nothing changes.
class NaiveClosure {
public:
  explicit NaiveClosure(const Language& lang) : lang_(lang) {}

  int add(const TreeTerm& t) {
    std::vector<int> kids;
    for (const auto& c : t.children) {
      if (lang_.is_ac(t.op) && c.op == t.op) {
        // flattened already by ac-flattening below
      }
      kids.push_back(add(c));
    }
    auto it = index_.find(t);
    if (it != index_.end())
      return it->second;
    const int id = static_cast<int>(nodes_.size());
    nodes_.push_back({t.op, t.payload, kids});
    parent_.push_back(id);
    index_.emplace(t, id);
    return id;
  }
  int find(int x) {
    while (parent_[x] != x)
      x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void merge(int a, int b) { parent_[find(a)] = find(b); }
  void close() {
    for (bool changed = true; changed;) {
      changed = false;
      std::map<std::tuple<OpId, Payload, std::vector<int>>, int> seen;
      for (int n = 0; n < static_cast<int>(nodes_.size()); ++n) {
        std::vector<int> key;
        for (int k : nodes_[n].kids)
          key.push_back(find(k));
        if (lang_.is_ac(nodes_[n].op))
          std::sort(key.begin(), key.end());
        auto [it, fresh] = seen.emplace(std::make_tuple(nodes_[n].op, nodes_[n].payload, key), n);
        if (!fresh && find(it->second) != find(n)) {
          merge(it->second, n);
          changed = true;
        }
      }
    }
  }

private:
  struct Node {
    OpId op;
    Payload payload;
    std::vector<int> kids;
  };
  const Language& lang_;
  std::vector<Node> nodes_;
  std::vector<int> parent_;
  std::map<TreeTerm, int> index_;
};

// Flattens nested same-operator AC nodes (and one-child AC nodes) like add_term does.
TreeTerm flatten(const Language& lang, const TreeTerm& t) {
  TreeTerm out{t.op, t.payload, {}};
  for (const auto& c : t.children) {
    TreeTerm fc = flatten(lang, c);
    if (lang.is_ac(t.op) && fc.op == t.op)
      for (auto& gc : fc.children)
        out.children.push_back(std::move(gc));
    else
      out.children.push_back(std::move(fc));
  }
  if (lang.is_ac(t.op) && out.children.size() == 1)
    return std::move(out.children.front());
  return out;
}

TreeTerm random_term(Lang& L, std::mt19937& rng, int depth) {
  if (depth == 0 || rng() % 4 == 0)
    return TreeTerm{L.sym, L.lang.intern_symbol(testing::cat("v", rng() % 6)), {}};
  switch (rng() % 3) {
  case 0:
    return TreeTerm{L.f, 0, {random_term(L, rng, depth - 1)}};
  case 1:
    return TreeTerm{L.g, 0, {random_term(L, rng, depth - 1), random_term(L, rng, depth - 1)}};
  default: {
    TreeTerm t{L.add, 0, {}};
    const int n = 2 + static_cast<int>(rng() % 3);
    for (int i = 0; i < n; ++i)
      t.children.push_back(random_term(L, rng, depth - 1));
    return t;
  }
  }
}

TEST(Property, RandomMergesMatchNaiveCongruenceClosure) {
  Lang L;
  for (unsigned seed = 1; seed <= 200; ++seed) {
    std::mt19937 rng(seed);
    EGraph g(L.lang);
    NaiveClosure ref(L.lang);
    std::vector<std::pair<Id, int>> terms; // e-graph id, reference vertex
    for (int step = 0; step < 100; ++step) {
      const int action = static_cast<int>(rng() % 10);
      if (action < 5 || terms.size() < 2) {
        const TreeTerm t = random_term(L, rng, 3);
        const Id id = g.add_term(to_term(t));
        terms.emplace_back(id, ref.add(flatten(L.lang, t)));
      } else if (action < 8) {
        const auto& x = terms[rng() % terms.size()];
        const auto& y = terms[rng() % terms.size()];
        g.merge(x.first, y.first);
        ref.merge(x.second, y.second);
      } else {
        g.rebuild();
        const auto err = g.check_invariants();
        ASSERT_FALSE(err.has_value()) << "seed " << seed << ": " << *err;
      }
    }
    g.rebuild();
    expect_invariants(g);
    ref.close();
    for (std::size_t i = 0; i < terms.size(); ++i)
      for (std::size_t j = i + 1; j < terms.size(); ++j)
        ASSERT_EQ(g.is_equal(terms[i].first, terms[j].first),
                  ref.find(terms[i].second) == ref.find(terms[j].second))
            << "seed " << seed << " terms " << i << ", " << j;
  }
}

TEST(Property, InvariantsHoldWithAnalysesAndExplanations) {
  Arith a = make_arith();
  for (unsigned seed = 1; seed <= 10; ++seed) {
    std::mt19937 rng(seed);
    EGraphOptions o;
    o.explanations = seed % 2 == 0;
    EGraph g(a.lang, o);
    add_arith_constant_folding(g, a);
    std::vector<Id> ids;
    const char* leaves[] = {"x", "y", "0", "1", "1/2", "-3"};
    for (int i = 0; i < 80; ++i) {
      const std::string l1 = leaves[rng() % 6], l2 = leaves[rng() % 6], l3 = leaves[rng() % 6];
      switch (rng() % 4) {
      case 0:
        ids.push_back(g.add_expr(testing::cat("(+ ", l1, " (* ", l2, " ", l3, "))")));
        break;
      case 1:
        ids.push_back(g.add_expr(testing::cat("(/ ", l1, " (- ", l2, " ", l3, "))")));
        break;
      case 2:
        ids.push_back(g.add_expr(testing::cat("(exp (max ", l1, " ", l2, "))")));
        break;
      default:
        if (ids.size() > 2 && rng() % 2)
          g.merge(ids[rng() % ids.size()], g.add_expr(l1));
        else
          g.rebuild();
      }
      if (g.is_clean()) {
        const auto err = g.check_invariants();
        ASSERT_FALSE(err.has_value()) << "seed " << seed << ": " << *err;
      }
    }
    g.rebuild();
    expect_invariants(g);
  }
}

} // namespace
} // namespace volta::egraph
