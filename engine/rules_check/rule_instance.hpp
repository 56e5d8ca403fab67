// Instances of a rewrite rule for `volta-eg rules check`: each variable of the rule becomes a
// fresh symbol, or a quotient n/d of two fresh symbols (a value that is undefined where d = 0,
// which is what a variable without a `total` condition may be bound to in the e-graph); a rest
// variable becomes `size` such values. Both sides are then terms of the ML language, which
// the checker evaluates at points and proves.
//
// The conversion into expression-DAG nodes is literal: every operator becomes its node, with no
// simplification. The engine's Builder folds max(a, a), select(c, a, a) or max(-inf, a), which
// are identities only where the folded operands are defined; a rule instance built through it
// could lose the very difference of domains the check looks for.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "egraph/pattern.hpp"
#include "egraph/tree_term.hpp"
#include "engine/symbolic/expr_store.hpp"
#include "rules/algebra/form_predicates.hpp"
#include "rules/algebra/ml_language.hpp"
#include "rules/rule_file.hpp"

namespace volta::rules_check {

// A term with an operator the expression DAG has no meaning for (an `opaque` leaf).
struct NotConvertible : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Instance {
  std::vector<egraph::TreeTerm> vars;               // by variable index (plain variables)
  std::vector<std::vector<egraph::TreeTerm>> rests; // by variable index (rest variables)
  std::vector<std::string> symbols;                 // every symbol's name
  std::vector<std::string> partial_symbols;         // the symbols of variables bound to quotients:
                                                    // "?a.n", "?a.d"
  egraph::TreeTerm lhs, rhs;
};

class Instantiator {
public:
  Instantiator(algebra::MlLanguage& ml, const egraph::Pattern& lhs) : ml_(ml), lhs_(lhs) {}

  // `partial[v]`: variable v is bound to a quotient n/d of fresh symbols instead of a symbol.
  // `rest_size`: the number of elements of every rest variable (at least 1).
  Instance make(size_t rest_size, const std::vector<bool>& partial);
  // Pattern `p` (the left-hand side or the right-hand side) over the instance's values. A rest
  // variable under its own operator is spliced into it; elsewhere it is the node of its operator
  // over its elements (one element: that element), as egraph::instantiate builds it.
  egraph::TreeTerm build(const egraph::Pattern& p, uint32_t i, const Instance& in);

private:
  egraph::TreeTerm symbol(Instance& in, const std::string& name, bool partial);

  algebra::MlLanguage& ml_;
  const egraph::Pattern& lhs_;
};

// A condition of the rule on the instance's symbols that stand for one variable.
struct Condition {
  algebra::FormPredicate predicate;
  std::vector<std::string> symbols;
};
std::vector<Condition> conditions_of(const rules::RuleSpec& spec, const egraph::Pattern& lhs,
                                     const Instance& in, const egraph::Language& lang);

// Whether a condition of `spec` makes variable `var` total (every predicate but `finite` does).
bool total_by_condition(const rules::RuleSpec& spec, const std::string& var);

// Whether P holding for every element of a rest variable of AC operator `op` implies P of
// op(elements): what proving a rule with one-element rest variables needs (below).
bool condition_lifts(algebra::FormPredicate p, const algebra::MlLanguage& ml, egraph::OpId op);

// Terms of the ML language as expression-DAG nodes, literally; symbols are parameters named
// like them. Throws NotConvertible.
class LiteralDag {
public:
  LiteralDag(const algebra::MlLanguage& ml, symbolic::ExprStore& store) : ml_(ml), s_(store) {}
  symbolic::ExprId convert(const egraph::TreeTerm& t);
  symbolic::ExprId node(symbolic::Op op, symbolic::ExprId a, symbolic::ExprId b = symbolic::kNoExpr,
                        symbolic::ExprId c = symbolic::kNoExpr, uint8_t aux = 0);
  symbolic::ExprId symbol(const std::string& name);

private:
  const algebra::MlLanguage& ml_;
  symbolic::ExprStore& s_;
};

} // namespace volta::rules_check
