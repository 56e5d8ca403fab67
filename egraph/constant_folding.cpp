#include "egraph/constant_folding.hpp"

#include <stdexcept>

#include "egraph/egraph.hpp"

namespace volta::egraph {

ConstantFolding::ConstantFolding(Language& lang, OpId constant_op)
    : lang_(lang), constant_op_(constant_op) {
  if (lang.op(constant_op).payload != PayloadKind::Rational)
    throw std::invalid_argument("ConstantFolding: constant operator needs a Rational payload");
}

void ConstantFolding::set_fold(OpId op, FoldFn fn) {
  if (folds_.size() <= op)
    folds_.resize(static_cast<std::size_t>(op) + 1);
  folds_[op] = std::move(fn);
}

std::optional<mpq_class> ConstantFolding::value(const EGraph& g, Id id) const {
  const ConstData& d = data(g.find(id));
  if (!d.known())
    return std::nullopt;
  return lang_.rational(d.value);
}

ConstData ConstantFolding::make_data(const EGraph& g, NodeView n) {
  if (n.op == constant_op_)
    return ConstData{n.payload};
  if (!folds(n.op))
    return {};
  args_.clear();
  for (Id c : n.children) {
    const ConstData& d = data(g.find(c));
    if (!d.known())
      return {};
    args_.push_back(&lang_.rational(d.value));
  }
  auto r = folds_[n.op](args_);
  if (!r)
    return {};
  return ConstData{lang_.intern_rational(*r)};
}

MergeResult ConstantFolding::merge_data(ConstData& a, const ConstData& b) {
  if (a == b)
    return {false, false};
  if (!a.known()) {
    a = b;
    return {true, false};
  }
  if (b.known())
    ++conflicts_; // two different values: an unsound rewrite merged them
  return {false, true};
}

void ConstantFolding::modify(EGraph& g, Id cls) {
  const ConstData d = data(cls);
  if (!d.known())
    return;
  if (reason_graph_ != &g) { // the reason id belongs to the e-graph; look it up once
    reason_ = g.reason_id("constant-fold");
    reason_graph_ = &g;
  }
  const Justification why = Justification::named(reason_);
  if (!g.explanations_enabled()) {
    const Id c = g.add_leaf(constant_op_, d.value);
    if (g.find(c) != g.find(cls))
      g.merge(cls, c, why);
    return;
  }
  // Explanations: merge the ground instance (op c1 ... cn) of a folding node with the result.
  const auto nodes = g.class_nodes(cls);
  const std::vector<Id> members(nodes.begin(), nodes.end());
  for (Id n : members) {
    const NodeView v = g.node(n);
    if (v.op == constant_op_ && v.payload == d.value)
      return; // the class already holds its constant
  }
  for (Id n : members) {
    const NodeView v = g.node(n);
    if (!folds(v.op) || !g.is_live_node(n))
      continue;
    const std::vector<Id> kids(v.children.begin(), v.children.end());
    const OpId op = v.op;
    std::vector<Payload> values;
    for (Id k : kids) {
      const ConstData& kd = data(g.find(k));
      if (!kd.known())
        break;
      values.push_back(kd.value);
    }
    if (values.size() != kids.size())
      continue;
    args_.clear();
    for (Payload p : values)
      args_.push_back(&lang_.rational(p));
    auto r = folds_[op](args_);
    if (!r || lang_.intern_rational(*r) != d.value)
      continue;
    std::vector<Id> consts;
    for (Payload p : values)
      consts.push_back(g.add_leaf(constant_op_, p));
    const Id ground = g.add(op, consts);
    const Id result = g.add_leaf(constant_op_, d.value);
    g.merge(ground, result, why);
    return;
  }
}

std::optional<mpq_class> ConstantFolding::fold_tree(const TreeTerm& t) const {
  if (t.op == constant_op_)
    return lang_.rational(t.payload);
  if (!folds(t.op))
    return std::nullopt;
  std::vector<mpq_class> vals;
  vals.reserve(t.children.size());
  for (const auto& c : t.children) {
    auto v = fold_tree(c);
    if (!v)
      return std::nullopt;
    vals.push_back(std::move(*v));
  }
  std::vector<const mpq_class*> ptrs;
  for (const auto& v : vals)
    ptrs.push_back(&v);
  return folds_[t.op](ptrs);
}

ConstantFolding::FoldFn ConstantFolding::fold_add() {
  return [](Args a) -> std::optional<mpq_class> {
    mpq_class s = 0;
    for (auto* x : a)
      s += *x;
    return s;
  };
}
ConstantFolding::FoldFn ConstantFolding::fold_mul() {
  return [](Args a) -> std::optional<mpq_class> {
    mpq_class p = 1;
    for (auto* x : a)
      p *= *x;
    return p;
  };
}
ConstantFolding::FoldFn ConstantFolding::fold_sub() {
  return [](Args a) -> std::optional<mpq_class> {
    if (a.size() != 2)
      return std::nullopt;
    return mpq_class(*a[0] - *a[1]);
  };
}
ConstantFolding::FoldFn ConstantFolding::fold_div() {
  return [](Args a) -> std::optional<mpq_class> {
    if (a.size() != 2 || *a[1] == 0)
      return std::nullopt; // never fold a division by zero
    return mpq_class(*a[0] / *a[1]);
  };
}
ConstantFolding::FoldFn ConstantFolding::fold_neg() {
  return [](Args a) -> std::optional<mpq_class> {
    if (a.size() != 1)
      return std::nullopt;
    return mpq_class(-*a[0]);
  };
}
ConstantFolding::FoldFn ConstantFolding::fold_max() {
  return [](Args a) -> std::optional<mpq_class> {
    if (a.empty())
      return std::nullopt;
    const mpq_class* m = a[0];
    for (auto* x : a)
      if (*x > *m)
        m = x;
    return *m;
  };
}
ConstantFolding::FoldFn ConstantFolding::fold_min() {
  return [](Args a) -> std::optional<mpq_class> {
    if (a.empty())
      return std::nullopt;
    const mpq_class* m = a[0];
    for (auto* x : a)
      if (*x < *m)
        m = x;
    return *m;
  };
}
ConstantFolding::FoldFn ConstantFolding::fold_exp() {
  return [](Args a) -> std::optional<mpq_class> {
    if (a.size() == 1 && *a[0] == 0)
      return mpq_class(1); // exp(0) = 1; every other exp of a rational is irrational
    return std::nullopt;
  };
}

} // namespace volta::egraph
