#include "egraph/explain_check.hpp"

#include <algorithm>

#include "egraph/sexpr.hpp"

namespace volta::egraph {

namespace {

void flatten_into(const Language& lang, OpId op, const TreeTerm& t, std::vector<TreeTerm>& out) {
  for (const auto& c : t.children) {
    TreeTerm n = ac_normal_form(lang, c);
    if (n.op == op && lang.is_ac(op))
      std::move(n.children.begin(), n.children.end(), std::back_inserter(out));
    else
      out.push_back(std::move(n));
  }
}

bool match_at(const Pattern& p, std::uint32_t pi, const TreeTerm& t, TermBinding& b) {
  const PatNode& n = p.node(pi);
  switch (n.kind) {
  case PatNode::Kind::Var:
    if (b.vars[n.var])
      return *b.vars[n.var] == t;
    b.vars[n.var] = t;
    return true;
  case PatNode::Kind::Rest:
    return false; // only reachable through the parent's positional split
  case PatNode::Kind::Op:
    break;
  }
  if (t.op != n.op || t.payload != n.payload)
    return false;
  const auto kids = p.children(pi);
  const std::size_t size = t.children.size();
  std::size_t rest_at = kids.size();
  for (std::size_t i = 0; i < kids.size(); ++i)
    if (p.node(kids[i]).kind == PatNode::Kind::Rest)
      rest_at = i;
  if (rest_at == kids.size()) {
    if (size != kids.size())
      return false;
    for (std::size_t i = 0; i < size; ++i)
      if (!match_at(p, kids[i], t.children[i], b))
        return false;
    return true;
  }
  const std::size_t after = kids.size() - rest_at - 1;
  if (size < kids.size())
    return false; // the rest takes at least one child
  const std::size_t rest_len = size - rest_at - after;
  for (std::size_t i = 0; i < rest_at; ++i)
    if (!match_at(p, kids[i], t.children[i], b))
      return false;
  for (std::size_t i = 0; i < after; ++i)
    if (!match_at(p, kids[rest_at + 1 + i], t.children[rest_at + rest_len + i], b))
      return false;
  b.rests[p.node(kids[rest_at]).var].assign(t.children.begin() + rest_at,
                                            t.children.begin() + rest_at + rest_len);
  return true;
}

TreeTerm make_node(const Language& lang, OpId op, Payload payload, std::vector<TreeTerm> kids) {
  if (lang.is_ac(op) && kids.size() == 1)
    return std::move(kids.front());
  return TreeTerm{op, payload, std::move(kids)};
}

void inst_children(const Pattern& p, std::uint32_t pi, const TermBinding& b,
                   std::vector<TreeTerm>& out);

TreeTerm inst_at(const Pattern& p, std::uint32_t pi, const TermBinding& b) {
  const PatNode& n = p.node(pi);
  const Language& lang = p.language();
  switch (n.kind) {
  case PatNode::Kind::Var:
    return *b.vars[n.var];
  case PatNode::Kind::Rest:
    return make_node(lang, p.vars().var(n.var).rest_op, 0, b.rests[n.var]);
  case PatNode::Kind::Op:
    break;
  }
  std::vector<TreeTerm> kids;
  inst_children(p, pi, b, kids);
  return make_node(lang, n.op, n.payload, std::move(kids));
}

void inst_children(const Pattern& p, std::uint32_t pi, const TermBinding& b,
                   std::vector<TreeTerm>& out) {
  const PatNode& n = p.node(pi);
  const bool ac = p.language().is_ac(n.op);
  for (auto c : p.children(pi)) {
    const PatNode& cn = p.node(c);
    if (ac && cn.kind == PatNode::Kind::Rest && p.vars().var(cn.var).rest_op == n.op)
      out.insert(out.end(), b.rests[cn.var].begin(), b.rests[cn.var].end());
    else if (ac && cn.kind == PatNode::Kind::Op && cn.op == n.op)
      inst_children(p, c, b, out);
    else
      out.push_back(inst_at(p, c, b));
  }
}

// Replaces the subterm at `path` of a copy of `before` with `after`'s and compares.
bool same_outside(const TreeTerm& before, const TreeTerm& after, const TermPath& path) {
  TreeTerm t = before;
  subterm(t, path) = subterm(after, path);
  return t == after;
}

} // namespace

TreeTerm ac_normal_form(const Language& lang, const TreeTerm& t) {
  if (!lang.is_ac(t.op)) {
    TreeTerm out{t.op, t.payload, {}};
    for (const auto& c : t.children)
      out.children.push_back(ac_normal_form(lang, c));
    return out;
  }
  std::vector<TreeTerm> kids;
  flatten_into(lang, t.op, t, kids);
  std::sort(kids.begin(), kids.end());
  return make_node(lang, t.op, t.payload, std::move(kids));
}

std::optional<TermBinding> match_term(const Pattern& p, const TreeTerm& t) {
  TermBinding b;
  b.vars.resize(p.vars().size());
  b.rests.resize(p.vars().size());
  if (!match_at(p, p.root(), t, b))
    return std::nullopt;
  return b;
}

TreeTerm instantiate_term(const Pattern& p, const TermBinding& b) {
  return inst_at(p, p.root(), b);
}

StepVerifier constant_fold_verifier(const ConstantFolding& cf) {
  return [&cf](const Language& lang, const TreeTerm& from, const TreeTerm& to) {
    const auto v = cf.fold_tree(from);
    const auto w = cf.fold_tree(to);
    return v && w && to.children.empty() && *v == *w;
  };
}

void ExplanationChecker::add_rules(std::span<const Rewrite> rules) {
  for (const auto& r : rules)
    rules_[r.name] = &r;
}

void ExplanationChecker::add_verifier(std::string name, StepVerifier v) {
  verifiers_[std::move(name)] = std::move(v);
}

std::optional<std::string> ExplanationChecker::check_step(const ExplanationStep& s,
                                                          const TreeTerm& before,
                                                          const TreeTerm& after,
                                                          std::size_t& trusted) const {
  const TreeTerm* from = nullptr;
  const TreeTerm* to = nullptr;
  try {
    from = &subterm(before, s.path);
    to = &subterm(after, s.path);
  } catch (const std::out_of_range&) {
    return "the step's path is not a position of both terms";
  }
  if (!same_outside(before, after, s.path))
    return "the terms differ outside the step's position";
  const TreeTerm& lhs_side = s.forward ? *from : *to;
  const TreeTerm& rhs_side = s.forward ? *to : *from;
  if (s.rule == "ac-normalize") {
    if (ac_normal_form(lang_, *from) != ac_normal_form(lang_, *to))
      return "ac-normalize: the AC normal forms differ";
    return std::nullopt;
  }
  if (auto it = rules_.find(s.rule); it != rules_.end()) {
    const Rewrite& r = *it->second;
    auto b = match_term(r.lhs, lhs_side);
    if (!b)
      return "rule '" + s.rule + "': left-hand side " + r.lhs.to_string() + " does not match " +
             to_sexpr(lhs_side, lang_);
    if (r.rhs) {
      const TreeTerm expect = instantiate_term(*r.rhs, *b);
      if (expect != rhs_side)
        return "rule '" + s.rule + "': right-hand side gives " + to_sexpr(expect, lang_) +
               ", the step has " + to_sexpr(rhs_side, lang_);
      return std::nullopt;
    }
    const StepVerifier* v = nullptr;
    if (registry_)
      v = registry_->verifier(r.applier_name.empty() ? r.name : r.applier_name);
    if (!v)
      if (auto vit = verifiers_.find(s.rule); vit != verifiers_.end())
        v = &vit->second;
    if (!v) {
      ++trusted;
      return std::nullopt;
    }
    if (!(*v)(lang_, lhs_side, rhs_side))
      return "rule '" + s.rule + "': its verifier rejects the step";
    return std::nullopt;
  }
  if (auto vit = verifiers_.find(s.rule); vit != verifiers_.end()) {
    if (!vit->second(lang_, lhs_side, rhs_side))
      return "step '" + s.rule + "': its verifier rejects " + to_sexpr(lhs_side, lang_) + " -> " +
             to_sexpr(rhs_side, lang_);
    return std::nullopt;
  }
  ++trusted;
  return std::nullopt;
}

CheckResult ExplanationChecker::check(const Explanation& e, const TreeTerm* from,
                                      const TreeTerm* to) const {
  CheckResult r;
  if (from && e.start != *from)
    return {false, 0, "the explanation does not start at the given term", 0};
  const TreeTerm* before = &e.start;
  for (std::size_t i = 0; i < e.steps.size(); ++i) {
    if (auto err = check_step(e.steps[i], *before, e.steps[i].term, r.trusted)) {
      r.ok = false;
      r.step = i;
      r.message = "step " + std::to_string(i) + " (" + e.steps[i].rule + "): " + *err;
      return r;
    }
    before = &e.steps[i].term;
  }
  if (to && *before != *to)
    return {false, e.steps.size(), "the explanation does not end at the given term", r.trusted};
  return r;
}

} // namespace volta::egraph
