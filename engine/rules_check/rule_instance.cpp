#include "engine/rules_check/rule_instance.hpp"

#include <fmt/format.h>

#include "support/invariant.hpp"

namespace volta::rules_check {

using egraph::PatNode;
using egraph::Pattern;
using egraph::TreeTerm;
using symbolic::ExprId;
using symbolic::Op;

Instance Instantiator::make(size_t rest_size, const std::vector<bool>& partial) {
  VOLTA_ASSERT(rest_size >= 1 && partial.size() == lhs_.vars().size(),
               "a partial instance names every variable of the left side");
  Instance in;
  const auto& vars = lhs_.vars();
  in.vars.resize(vars.size());
  in.rests.resize(vars.size());
  for (uint32_t v = 0; v < vars.size(); ++v) {
    const auto& var = vars.var(v);
    if (var.rest) {
      for (size_t k = 1; k <= rest_size; ++k)
        in.rests[v].push_back(symbol(in, fmt::format("?{}.{}", var.name, k), partial[v]));
    } else {
      in.vars[v] = symbol(in, "?" + var.name, partial[v]);
    }
  }
  in.lhs = build(lhs_, lhs_.root(), in);
  return in;
}

TreeTerm Instantiator::symbol(Instance& in, const std::string& name, bool partial) {
  auto leaf = [&](const std::string& s) {
    in.symbols.push_back(s);
    if (partial)
      in.partial_symbols.push_back(s);
    return TreeTerm{*ml_.lang.symbol_op(), ml_.lang.intern_symbol(s), {}};
  };
  if (!partial)
    return leaf(name);
  return TreeTerm{ml_.div, 0, {leaf(name + ".n"), leaf(name + ".d")}};
}

TreeTerm Instantiator::build(const Pattern& p, uint32_t i, const Instance& in) {
  const PatNode& n = p.node(i);
  auto rest_node = [&](uint32_t var) {
    const auto& elements = in.rests[var];
    if (elements.size() == 1)
      return elements[0];
    return TreeTerm{lhs_.vars().var(var).rest_op, 0, elements};
  };
  switch (n.kind) {
  case PatNode::Kind::Var:
    return in.vars[n.var];
  case PatNode::Kind::Rest:
    return rest_node(n.var);
  case PatNode::Kind::Op:
    break;
  }
  TreeTerm t{n.op, n.payload, {}};
  for (uint32_t k : p.children(i)) {
    const PatNode& c = p.node(k);
    if (c.kind == PatNode::Kind::Rest && lhs_.vars().var(c.var).rest_op == n.op) {
      for (const auto& e : in.rests[c.var])
        t.children.push_back(e);
    } else {
      t.children.push_back(build(p, k, in));
    }
  }
  return t;
}

bool total_by_condition(const rules::RuleSpec& spec, const std::string& var) {
  for (const auto& c : spec.conditions) {
    if (c.var == var && c.predicate != algebra::FormPredicate::Finite)
      return true; // every other predicate implies total
  }
  return false;
}

std::vector<Condition> conditions_of(const rules::RuleSpec& spec, const Pattern& lhs,
                                     const Instance& in, const egraph::Language& lang) {
  // The symbol a (total, hence plain) variable stands for.
  auto name_of = [&](const TreeTerm& t) {
    VOLTA_ASSERT(t.children.empty(), "a leaf has no children");
    return lang.symbol_name(t.payload);
  };
  std::vector<Condition> out;
  for (const auto& c : spec.conditions) {
    auto v = lhs.vars().find(c.var);
    if (!v || c.predicate == algebra::FormPredicate::Finite)
      continue; // every variable is finite: no constraint on the symbols
    Condition k{c.predicate, {}};
    if (lhs.vars().var(*v).rest) {
      for (const auto& t : in.rests[*v])
        k.symbols.push_back(name_of(t));
    } else {
      k.symbols.push_back(name_of(in.vars[*v]));
    }
    out.push_back(std::move(k));
  }
  return out;
}

bool condition_lifts(algebra::FormPredicate p, const algebra::MlLanguage& ml, egraph::OpId op) {
  using P = algebra::FormPredicate;
  // max and min are one of their elements: every predicate of all elements holds of them.
  if (op == ml.max || op == ml.min)
    return true;
  switch (p) {
  case P::Finite:
  case P::Total:
  case P::Constant:
  case P::Positive:
  case P::Nonnegative:
    return op == ml.add || op == ml.mul;
  case P::Negative:
    return op == ml.add; // (-1)·(-1) = 1
  case P::Nonzero:
    return op == ml.mul; // 1 + (-1) = 0
  }
  return false;
}

ExprId LiteralDag::node(Op op, ExprId a, ExprId b, ExprId c, uint8_t aux) {
  return s_.intern(symbolic::Node{op, aux, 0, a, b, c});
}

ExprId LiteralDag::symbol(const std::string& name) {
  return s_.param(s_.add_param_name(name));
}

ExprId LiteralDag::convert(const TreeTerm& t) {
  const auto& m = ml_;
  std::vector<ExprId> kids;
  for (const auto& c : t.children)
    kids.push_back(convert(c));
  const egraph::OpId op = t.op;
  auto need = [&](size_t n) {
    if (kids.size() != n)
      throw NotConvertible(
          fmt::format("operator '{}' with {} operands", m.lang.op(op).name, kids.size()));
  };
  // An n-ary node as a left-leaning chain of binary nodes.
  auto chain = [&](Op o) {
    if (kids.empty())
      throw NotConvertible(fmt::format("operator '{}' without operands", m.lang.op(op).name));
    ExprId acc = kids[0];
    for (size_t i = 1; i < kids.size(); ++i)
      acc = node(o, acc, kids[i]);
    return acc;
  };
  if (op == m.num)
    return s_.constant(symbolic::Rational(m.lang.rational(t.payload)));
  if (op == m.sym)
    return symbol(m.lang.symbol_name(t.payload));
  if (op == m.ln2)
    return s_.intern(symbolic::Node{Op::Ln2});
  if (op == m.pos_inf)
    return s_.pos_inf();
  if (op == m.neg_inf)
    return s_.neg_inf();
  if (op == m.add)
    return chain(Op::Add);
  if (op == m.mul)
    return chain(Op::Mul);
  if (op == m.max)
    return chain(Op::Max);
  if (op == m.min)
    return chain(Op::Min);
  if (op == m.div)
    return need(2), node(Op::Div, kids[0], kids[1]);
  const std::pair<egraph::OpId, Op> unary[] = {
      {m.neg, Op::Neg},   {m.abs, Op::Abs},     {m.exp, Op::Exp},  {m.ex2, Op::Ex2},
      {m.sqrt, Op::Sqrt}, {m.rsqrt, Op::Rsqrt}, {m.log2, Op::Lg2}, {m.sin, Op::Sin},
      {m.cos, Op::Cos},   {m.tanh, Op::Tanh},   {m.lnot, Op::Not}};
  for (const auto& [o, sop] : unary) {
    if (op == o)
      return need(1), node(sop, kids[0]);
  }
  const std::pair<egraph::OpId, symbolic::CmpKind> cmps[] = {
      {m.lt, symbolic::CmpKind::Lt}, {m.le, symbolic::CmpKind::Le}, {m.gt, symbolic::CmpKind::Gt},
      {m.ge, symbolic::CmpKind::Ge}, {m.eq, symbolic::CmpKind::Eq}, {m.ne, symbolic::CmpKind::Ne}};
  for (const auto& [o, k] : cmps) {
    if (op == o)
      return need(2), node(Op::Cmp, kids[0], kids[1], symbolic::kNoExpr, static_cast<uint8_t>(k));
  }
  const std::pair<egraph::OpId, Op> booleans[] = {
      {m.land, Op::And}, {m.lor, Op::Or}, {m.lxor, Op::Xor}};
  for (const auto& [o, bop] : booleans) {
    if (op == o)
      return need(2), node(bop, kids[0], kids[1]);
  }
  if (op == m.select)
    return need(3), node(Op::Select, kids[0], kids[1], kids[2]);
  throw NotConvertible("operator '" + m.lang.op(op).name + "' has no value over the reals");
}

} // namespace volta::rules_check
