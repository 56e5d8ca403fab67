#pragma once
// Constant folding over exact rationals (GMP mpq_class; no floating point anywhere): a class's
// data is the rational it is known to equal, if any. Folding functions are registered per
// operator (the language is defined at run time); the standard ones are provided. Division by
// zero and anything not exactly rational (exp(x) for x != 0) do not fold.
//
// modify() adds the constant node to a class with a known value and merges it in, so patterns
// that mention constants (`(* 0 ?x)`) match. With explanations on it first adds the ground node
// `(op c1 ... cn)` over the children's constants and merges that with the result under the named
// step "constant-fold", so every fold in an explanation is a ground evaluation a checker can
// replay (fold_tree). Merging two classes with different values (an unsound rule set) keeps the
// surviving class's value and is counted in conflicts(); it never aborts.

#include <functional>
#include <gmpxx.h>
#include <optional>
#include <span>
#include <vector>

#include "egraph/analysis.hpp"
#include "egraph/language.hpp"
#include "egraph/tree_term.hpp"

namespace volta::egraph {

struct ConstData {
  static constexpr Payload kNone = ~Payload{0};
  Payload value = kNone; // an interned rational (Language::rational), or kNone
  bool known() const { return value != kNone; }
  friend bool operator==(const ConstData&, const ConstData&) = default;
};

class ConstantFolding : public AnalysisOf<ConstData> {
public:
  using Args = std::span<const mpq_class* const>;
  using FoldFn = std::function<std::optional<mpq_class>(Args)>;

  ConstantFolding(Language& lang, OpId constant_op);
  std::string_view name() const override { return "constant-folding"; }

  void set_fold(OpId op, FoldFn fn);
  bool folds(OpId op) const { return op < folds_.size() && folds_[op] != nullptr; }

  // The value of the class of `id`.
  std::optional<mpq_class> value(const EGraph& g, Id id) const;
  std::size_t conflicts() const { return conflicts_; }
  // Evaluates a ground term built from constants and folding operators (nullopt otherwise);
  // used to check "constant-fold" explanation steps.
  std::optional<mpq_class> fold_tree(const TreeTerm& t) const;

  static FoldFn fold_add();
  static FoldFn fold_mul();
  static FoldFn fold_sub();
  static FoldFn fold_div();
  static FoldFn fold_neg();
  static FoldFn fold_max();
  static FoldFn fold_min();
  static FoldFn fold_exp();

  void modify(EGraph& g, Id cls) override;

protected:
  ConstData make_data(const EGraph& g, NodeView node) override;
  MergeResult merge_data(ConstData& a, const ConstData& b) override;

private:
  Language& lang_;
  OpId constant_op_;
  std::vector<FoldFn> folds_;
  std::vector<const mpq_class*> args_;
  std::size_t conflicts_ = 0;
  std::uint32_t reason_ = 0; // EGraph::reason_id("constant-fold") of reason_graph_
  const EGraph* reason_graph_ = nullptr;
};

} // namespace volta::egraph
