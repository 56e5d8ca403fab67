#pragma once
// Subst: a read-only view of one match's substitution record (layout in VarTable). Valid until
// the next rebuild() of the e-graph it came from (a rest binding is recomputed from the matched
// node, whose children rebuild() canonicalizes in place).

#include <span>
#include <string_view>
#include <vector>

#include "egraph/id.hpp"
#include "egraph/pattern.hpp"

namespace volta::egraph {

class EGraph;

class Subst {
public:
  Subst(const EGraph& g, const VarTable& vars, std::span<const Id> slots)
      : g_(&g), vars_(&vars), slots_(slots) {}

  // The class bound to plain variable `var` (an index into vars()).
  Id operator[](std::uint32_t var) const { return slots_[vars_->var(var).slot]; }
  // By name (without '?'); throws std::out_of_range for an unknown or rest variable.
  Id get(std::string_view name) const;
  // The multiset bound to a rest variable, sorted (repeats for multiplicities).
  std::vector<Id> rest(std::uint32_t var) const;
  std::vector<Id> rest(std::string_view name) const;
  // The AC node a rest variable was matched in.
  Id rest_node(std::uint32_t var) const { return slots_[vars_->var(var).slot]; }

  const VarTable& vars() const { return *vars_; }
  std::span<const Id> slots() const { return slots_; }
  const EGraph& egraph() const { return *g_; }

private:
  const EGraph* g_;
  const VarTable* vars_;
  std::span<const Id> slots_;
};

} // namespace volta::egraph
