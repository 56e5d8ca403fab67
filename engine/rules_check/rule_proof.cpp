#include "engine/rules_check/rule_proof.hpp"

#include <fmt/format.h>
#include <optional>

#include "rules/algebra/node_forms.hpp"

namespace volta::rules_check {

using egraph::TreeTerm;
using symbolic::ExprId;
using symbolic::Op;
using Kind = InstanceProof::Kind;

InstanceProof prove_by_z3(const algebra::MlLanguage& ml, const TreeTerm& lhs, const TreeTerm& rhs,
                          const std::vector<Condition>& conditions,
                          const prove::FallbackProver& prover, const std::string& rule) {
  symbolic::ExprStore store;
  LiteralDag dag(ml, store);
  ExprId l = dag.convert(lhs), r = dag.convert(rhs);
  // The conditions as one hypothesis: select(cond, side, 0) is defined where cond is (it is:
  // conditioned variables are plain symbols) and the branch it takes is.
  ExprId cond = symbolic::kNoExpr;
  const ExprId zero = store.constant(0);
  for (const auto& c : conditions) {
    std::optional<symbolic::CmpKind> k;
    switch (c.predicate) {
    case algebra::FormPredicate::Positive:
      k = symbolic::CmpKind::Gt;
      break;
    case algebra::FormPredicate::Negative:
      k = symbolic::CmpKind::Lt;
      break;
    case algebra::FormPredicate::Nonnegative:
      k = symbolic::CmpKind::Ge;
      break;
    case algebra::FormPredicate::Nonzero:
      k = symbolic::CmpKind::Ne;
      break;
    default:
      break; // total, const: every symbol is a real number
    }
    if (!k)
      continue;
    for (const auto& s : c.symbols) {
      const ExprId test =
          dag.node(Op::Cmp, dag.symbol(s), zero, symbolic::kNoExpr, static_cast<uint8_t>(*k));
      cond = cond == symbolic::kNoExpr ? test : dag.node(Op::And, cond, test);
    }
  }
  if (cond != symbolic::kNoExpr) {
    l = dag.node(Op::Select, cond, l, zero);
    r = dag.node(Op::Select, cond, r, zero);
  }
  if (l == r)
    return {Kind::Proved, "the two sides are the same term"};
  const auto outcome = prover(store, l, r, rule, nullptr);
  if (!outcome)
    return {Kind::Open, "Z3 gave no answer"};
  switch (outcome->kind) {
  case prove::ElementOutcome::Kind::Equivalent:
    return {Kind::Proved, ""};
  case prove::ElementOutcome::Kind::NotEquivalent:
    if (outcome->counterexample && outcome->counterexample->confirmed) {
      const auto& c = *outcome->counterexample;
      std::string inputs;
      for (const auto& [k, v] : c.inputs)
        inputs += fmt::format("{}{} = {}", inputs.empty() ? "" : ", ", k, v);
      return {Kind::Refuted,
              fmt::format("Z3 found a counterexample: at {} the left side is {} and the right "
                          "side is {}",
                          inputs.empty() ? "every symbol 0" : inputs, c.reference_value,
                          c.optimized_value)};
    }
    return {Kind::Open, "Z3 found a point that evaluation did not confirm"};
  default: {
    std::string reason = outcome->reason.empty() ? "no answer" : outcome->reason;
    if (reason.rfind("z3: ", 0) == 0)
      reason.erase(0, 4); // the checker names the prover itself
    return {Kind::Open, reason};
  }
  }
}

namespace {

// Why `t` is not built from strict total operators only (nullopt: it is). Strict: undefined
// where an operand is; total: defined where every operand is.
std::optional<std::string> not_strict_total(const algebra::MlLanguage& ml, const TreeTerm& t,
                                            algebra::NodeForms& nodes) {
  for (const auto& c : t.children) {
    if (auto why = not_strict_total(ml, c, nodes))
      return why;
  }
  const egraph::OpId op = t.op;
  if (op == ml.sqrt || op == ml.rsqrt || op == ml.log2)
    return fmt::format("'{}' is defined on part of the reals only", ml.lang.op(op).name);
  if (op == ml.select)
    return std::string("'select' is defined where its taken branch is, not where all operands are");
  if (op == ml.pos_inf || op == ml.neg_inf || op == ml.opaque)
    return fmt::format("'{}' is not a real number", ml.lang.op(op).name);
  if (op == ml.div) {
    const canonical::Id d = nodes.form_of_tree(t.children.at(1));
    if (!algebra::holds(algebra::FormPredicate::Positive, nodes.forms(), d))
      return std::string("a divisor is not known to be positive everywhere");
  }
  return std::nullopt;
}

void symbols_in(const algebra::MlLanguage& ml, const TreeTerm& t, std::set<std::string>& out) {
  if (t.op == ml.sym)
    out.insert(ml.lang.symbol_name(t.payload));
  for (const auto& c : t.children)
    symbols_in(ml, c, out);
}

} // namespace

InstanceProof prove_by_forms(const algebra::MlLanguage& ml, const TreeTerm& lhs,
                             const TreeTerm& rhs, const std::set<std::string>& may_be_undefined) {
  canonical::CanonicalForms forms;
  algebra::NodeForms nodes(ml, ml.lang, forms);
  try {
    for (const TreeTerm* side : {&lhs, &rhs}) {
      if (auto why = not_strict_total(ml, *side, nodes))
        return {Kind::Open,
                fmt::format("the {} side is not total: {}", side == &lhs ? "left" : "right", *why)};
    }
    // Each side is defined exactly where the variables it names are: the same variables.
    std::set<std::string> in_lhs, in_rhs;
    symbols_in(ml, lhs, in_lhs);
    symbols_in(ml, rhs, in_rhs);
    for (const auto& s : may_be_undefined) {
      if (in_lhs.count(s) != in_rhs.count(s))
        return {Kind::Open, fmt::format("{} occurs on the {} side only, and may be undefined", s,
                                        in_lhs.count(s) ? "left" : "right")};
    }
    const canonical::Id a = nodes.form_of_tree(lhs), b = nodes.form_of_tree(rhs);
    if (forms.is_undefined(a) || forms.is_undefined(b))
      return {Kind::Open, "a side has no canonical form"};
    // Every divisor is positive, so cross-multiplying is an equivalence.
    if (forms.equal(a, b) || forms.equal_by_cross_multiplication(a, b))
      return {Kind::Proved, ""};
    return {Kind::Open, "the canonical forms differ"};
  } catch (const canonical::BudgetExceeded&) {
    return {Kind::Open, "the canonical forms exceeded their budget"};
  }
}

} // namespace volta::rules_check
