#include "egraph/ematch.hpp"

#include <algorithm>
#include <type_traits>

#include "egraph/egraph.hpp"

namespace volta::egraph {

void Matches::append(const Matches& other) {
  roots.insert(roots.end(), other.roots.begin(), other.roots.end());
  substs.insert(substs.end(), other.substs.begin(), other.substs.end());
}

namespace {

// A non-owning reference to a continuation `void()`: the matcher nests one per pattern level
// without allocating (std::function would allocate per capture).
class FnRef {
public:
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, FnRef>) FnRef(F& f)
  noexcept : obj_(&f), call_(&invoke<F>) {}
  void operator()() const { call_(obj_); }

private:
  template <class F>
  static void invoke(void* o) {
    (*static_cast<F*>(o))();
  }
  void* obj_;
  void (*call_)(void*);
};

class Matcher {
public:
  Matcher(const EGraph& g, const Pattern& p, Matches& out, const SearchOptions& opts,
          SearchStats* stats)
      : g_(g), p_(p), vars_(p.vars()), lang_(g.language()), out_(out), opts_(opts), stats_(stats),
        slots_(p.vars().stride(), kNoId), bound_(p.vars().size(), 0) {}

  bool stopped() const { return stop_; }

  void run(Id cls) {
    root_ = cls;
    auto done = [this] { emit(); };
    match(p_.root(), cls, FnRef(done));
  }

private:
  struct Group {
    Id value;
    std::uint32_t count;
  };
  struct AcFrame {
    Id node;
    std::span<const std::uint32_t> order;
    std::optional<std::uint32_t> rest;
    std::vector<Group> groups;
    std::vector<Id> chosen;
    std::size_t attempts = 0;
    bool truncated = false;
  };

  void emit() {
    out_.roots.push_back(root_);
    out_.substs.insert(out_.substs.end(), slots_.begin(), slots_.end());
    if (out_.roots.size() >= opts_.match_limit) {
      stop_ = true;
      if (stats_)
        stats_->hit_match_limit = true;
    }
  }

  void match(std::uint32_t pi, Id cls, FnRef k) {
    const PatNode& pn = p_.node(pi);
    if (pn.kind == PatNode::Kind::Var) {
      const auto slot = vars_.var(pn.var).slot;
      if (bound_[pn.var]) {
        if (slots_[slot] == cls)
          k();
        return;
      }
      slots_[slot] = cls;
      bound_[pn.var] = 1;
      k();
      bound_[pn.var] = 0;
      return;
    }
    const bool ac = lang_.is_ac(pn.op);
    for (Id n : g_.class_nodes(cls)) {
      const NodeView v = g_.node(n);
      if (v.op < pn.op)
        continue;
      if (v.op > pn.op)
        break; // class nodes are sorted by operator
      if (v.payload != pn.payload)
        continue;
      if (ac) {
        match_ac(pi, n, v, k);
      } else if (v.children.size() == pn.count) {
        match_seq(pi, v.children.data(), 0, k);
      }
      if (stop_)
        return;
    }
  }

  void match_seq(std::uint32_t pi, const Id* kids, std::uint32_t i, FnRef k) {
    if (i == p_.node(pi).count) {
      k();
      return;
    }
    auto next = [&] { match_seq(pi, kids, i + 1, k); };
    match(p_.children(pi)[i], kids[i], FnRef(next));
  }

  void match_ac(std::uint32_t pi, Id n, const NodeView& v, FnRef k) {
    AcFrame f{n, p_.match_order(pi), p_.rest_child(pi), {}, {}, 0, false};
    const std::size_t m = f.order.size();
    const std::size_t size = v.children.size();
    if (f.rest ? size < m + 1 : size != m)
      return;
    for (Id c : v.children) {
      if (!f.groups.empty() && f.groups.back().value == c)
        ++f.groups.back().count;
      else
        f.groups.push_back({c, 1});
    }
    f.chosen.assign(m, kNoId);
    ac_assign(f, 0, k);
    if (f.truncated && stats_)
      ++stats_->ac_truncated;
  }

  void ac_assign(AcFrame& f, std::uint32_t j, FnRef k) {
    if (j == f.order.size()) {
      if (!f.rest) {
        k();
        return;
      }
      const auto slot = vars_.var(p_.node(*f.rest).var).slot;
      slots_[slot] = f.node;
      slots_[slot + 1] = static_cast<Id>(f.chosen.size());
      std::copy(f.chosen.begin(), f.chosen.end(), slots_.begin() + slot + 2);
      k();
      return;
    }
    const std::uint32_t child = f.order[j];
    const PatNode& cn = p_.node(child);
    auto next = [&] { ac_assign(f, j + 1, k); };
    auto try_group = [&](Group& g) {
      if (g.count == 0)
        return;
      if (++f.attempts > opts_.ac_attempt_limit) {
        f.truncated = true;
        return;
      }
      --g.count;
      f.chosen[j] = g.value;
      match(child, g.value, FnRef(next));
      ++g.count;
    };
    if (cn.kind == PatNode::Kind::Var && bound_[cn.var]) {
      // A bound variable can only take the element equal to its binding.
      const Id want = slots_[vars_.var(cn.var).slot];
      auto it = std::lower_bound(f.groups.begin(), f.groups.end(), want,
                                 [](const Group& g, Id x) { return g.value < x; });
      if (it != f.groups.end() && it->value == want)
        try_group(*it);
      return;
    }
    for (Group& g : f.groups) {
      try_group(g);
      if (stop_ || f.truncated)
        return;
    }
  }

  const EGraph& g_;
  const Pattern& p_;
  const VarTable& vars_;
  const Language& lang_;
  Matches& out_;
  const SearchOptions& opts_;
  SearchStats* stats_;
  std::vector<Id> slots_;
  std::vector<std::uint8_t> bound_;
  Id root_ = kNoId;
  bool stop_ = false;
};

} // namespace

void search_classes(const EGraph& g, const Pattern& p, std::span<const Id> classes, Matches& out,
                    const SearchOptions& opts, SearchStats* stats) {
  out.stride = p.vars().stride();
  if (out.roots.size() >= opts.match_limit)
    return;
  Matcher m(g, p, out, opts, stats);
  for (Id c : classes) {
    m.run(c);
    if (m.stopped())
      return;
  }
}

std::span<const Id> candidate_classes(const EGraph& g, const Pattern& p) {
  return g.classes_with_op(p.node(p.root()).op);
}

Matches search(const EGraph& g, const Pattern& p, const SearchOptions& opts, SearchStats* stats) {
  Matches out;
  search_classes(g, p, candidate_classes(g, p), out, opts, stats);
  return out;
}

} // namespace volta::egraph
