#pragma once
// Patterns: terms with variables, written as s-expressions: `(* ?a (+ ?b ?c))`. A rest variable
// `?xs...` stands for the remaining children of an AC node: `(+ (* 2 ?x) ?rest...)` matches any
// sum with a `(* 2 x)` element plus at least one more, binding ?rest to the other elements (a
// sub-multiset, not a class). docs/egraph.md, "Matching n-ary AC nodes", has the semantics.
//
// Left-hand sides are taken literally (a nested `(+ ... (+ ...))` matches an element whose class
// holds a sum). Right-hand sides are flattened when instantiated: a same-operator AC child and a
// rest variable under an AC node of its own operator are spliced in. Variables are numbered in a
// VarTable; a rule's right-hand side shares its left-hand side's table.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/language.hpp"
#include "egraph/sexpr.hpp"

namespace volta::egraph {

struct PatternVar {
  std::string name; // without '?' and '...'
  bool rest = false;
  // Rest variables: the AC operator whose node they appear in (left-hand side) and how many
  // other children that node has (the elements recorded next to a rest binding).
  OpId rest_op = 0;
  std::uint32_t rest_siblings = 0;
  std::uint32_t slot = 0; // offset into a substitution record
};

// The variables of a pattern and the layout of a substitution record: a plain variable takes one
// slot (a class id); a rest variable takes 2 + rest_siblings slots (the matched node id, the
// sibling count, then the class of each sibling), from which the rest multiset is recomputed.
class VarTable {
public:
  std::optional<std::uint32_t> find(std::string_view name) const;
  const PatternVar& var(std::uint32_t i) const { return vars_[i]; }
  std::size_t size() const { return vars_.size(); }
  std::uint32_t stride() const { return stride_; }

  std::uint32_t add(std::string name, bool rest);
  void set_rest_shape(std::uint32_t i, OpId op, std::uint32_t siblings);
  void finish_layout();

private:
  std::vector<PatternVar> vars_;
  std::uint32_t stride_ = 0;
};

struct PatNode {
  enum class Kind : std::uint8_t { Var, Rest, Op };
  Kind kind = Kind::Op;
  OpId op = 0;
  Payload payload = 0;
  std::uint32_t var = 0;   // Var / Rest
  std::uint32_t first = 0; // children (Op), into Pattern's child array
  std::uint32_t count = 0;
};

class Pattern {
public:
  // A left-hand side (or stand-alone searcher): the root must be an operator; rest variables
  // only as direct children of AC nodes, at most one per node, each used once.
  static Parsed<Pattern> parse(std::string_view text, Language& lang);
  // A right-hand side over the variables of `lhs` (every variable must be bound by it).
  static Parsed<Pattern> parse_rhs(std::string_view text, Language& lang, const Pattern& lhs);
  static Parsed<Pattern> from_sexpr(const Sexpr& s, Language& lang, const Pattern* lhs);

  std::uint32_t root() const { return root_; }
  const PatNode& node(std::uint32_t i) const { return nodes_[i]; }
  std::size_t size() const { return nodes_.size(); }
  std::span<const std::uint32_t> children(std::uint32_t i) const {
    return {kids_.data() + nodes_[i].first, nodes_[i].count};
  }
  // The children of an AC node in the order the matcher tries them (operators first, then
  // variables; the rest variable excluded).
  std::span<const std::uint32_t> match_order(std::uint32_t i) const {
    return {order_.data() + nodes_[i].first, order_count_[i]};
  }
  // The rest variable child of node i, if any.
  std::optional<std::uint32_t> rest_child(std::uint32_t i) const;
  const VarTable& vars() const { return vars_; }
  const Language& language() const { return *lang_; }
  std::string to_string() const;

private:
  const Language* lang_ = nullptr;
  std::vector<PatNode> nodes_;
  std::vector<std::uint32_t> kids_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> order_count_;
  std::uint32_t root_ = 0;
  VarTable vars_;
  friend class PatternBuilder;
};

} // namespace volta::egraph
