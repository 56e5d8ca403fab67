// Polynomial normal forms of DAG nodes, to find exp arguments that are equal or that add up to
// another argument (engine/smt/ground_laws.hpp). A form is a sum of rational multiples of
// monomials over atoms: leaves and the nodes that are not polynomial (max, exp, a division by a
// non-constant, ...), each atom being one DAG node. Equal forms mean equal values wherever the
// atoms have values, whatever those values are; that is all the laws need, and it holds for Z3's
// total division as well as for the reals. Forms of one store's nodes are memoized.
//
// Why not rules/algebra's canonical forms (docs/architecture.md, "Two polynomial normal forms"):
// those cancel common factors of quotients (x·y/y is x) and treat exp as part of the class,
// which is valid over the reals under the reference's domain assumptions but false for Z3's
// total division (y = 0 gives x·0/0, an arbitrary value), and the laws built from these forms
// are asserted to Z3 as they are. These forms keep every division by a non-constant and every
// exp as an atom, and offer the additive hash the ground laws match pairs with; they are also
// over the engine's DAG nodes, not e-graph ids.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/symbolic/expr_store.hpp"

namespace volta::smt {

class PolyForms {
public:
  using Monomial = std::vector<symbolic::ExprId>;                    // sorted atoms
  using Form = std::vector<std::pair<Monomial, symbolic::Rational>>; // sorted, no zero coefficient

  // The atom standing for ln 2 (Ln2 nodes and the factor of ex2's argument). 0 is never a node.
  static constexpr symbolic::ExprId kLn2Atom = symbolic::kNoExpr;

  // Forms with more than `max_terms` monomials are replaced by the node as an atom, which keeps
  // products of sums from expanding without bound.
  explicit PolyForms(const symbolic::ExprStore& store, size_t max_terms = 256)
      : store_(store), max_terms_(max_terms) {}

  const Form& form(symbolic::ExprId node);

  static Form add(const Form& a, const Form& b);
  // `f` times the atom `atom`.
  static Form times_atom(const Form& f, symbolic::ExprId atom);

  // A hash with hash(add(a, b)) == hash(a) + hash(b) modulo 2^61 - 1, so that pairs can be
  // matched with a table lookup; nullopt when a coefficient's denominator is a multiple of the
  // modulus. Equal hashes are only candidates: compare the forms.
  static std::optional<uint64_t> additive_hash(const Form& f);
  static constexpr uint64_t kModulus = (uint64_t{1} << 61) - 1;

private:
  Form compute(symbolic::ExprId node);
  Form atom(symbolic::ExprId node) const;

  const symbolic::ExprStore& store_;
  size_t max_terms_;
  std::unordered_map<symbolic::ExprId, Form> memo_;
};

} // namespace volta::smt
