#pragma once
// AC flattening of terms on insertion. When a term is added, a child of an AC node with the same
// operator is spliced into its parent (`(+ a (+ b c))` is added as the one node `(+ a b c)`), so
// every grouping and order of a long sum lands on the same sorted multiset, in O(n log n) and
// without classes for the partial sums. A spliced node gets an e-class of its own only if it is
// a root or some parent does not splice it. A node whose flattened size would exceed
// `max_flat_children` is not spliced (it stays a child class): splicing a DAG of shared partial
// sums would otherwise blow up exponentially.

#include <span>
#include <vector>

#include "egraph/language.hpp"
#include "egraph/term.hpp"

namespace volta::egraph {

class FlatTermPlan {
public:
  static constexpr std::size_t kDefaultMaxFlatChildren = std::size_t{1} << 20;

  FlatTermPlan(const Term& t, const Language& lang, std::span<const Term::Index> roots,
               std::size_t max_flat_children = kDefaultMaxFlatChildren);

  bool needs_class(Term::Index i) const { return needs_class_[i] != 0; }
  // Appends node i's children after flattening (each a node that needs a class), in term order.
  void flat_children(Term::Index i, std::vector<Term::Index>& out) const;

private:
  // A child with its parent's operator is splicable only if that operator is AC.
  bool spliced(Term::Index parent, Term::Index child) const {
    return splicable_[child] != 0 && t_.op(child) == t_.op(parent);
  }

  const Term& t_;
  const Language& lang_;
  std::vector<std::uint8_t> needs_class_;
  std::vector<std::uint8_t> splicable_;
};

} // namespace volta::egraph
