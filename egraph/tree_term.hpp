#pragma once
// TreeTerm: an expression as a plain recursive tree (no sharing). Explanations manipulate terms
// position by position (replace the subterm at a path), which is natural on a tree.

#include <compare>
#include <cstdint>
#include <vector>

#include "egraph/id.hpp"
#include "egraph/term.hpp"

namespace volta::egraph {

struct TreeTerm {
  OpId op = 0;
  Payload payload = 0;
  std::vector<TreeTerm> children;

  friend bool operator==(const TreeTerm&, const TreeTerm&) = default;
  // A total order (operator, payload, arity, children lexicographically), used to sort the
  // children of AC nodes into a normal form.
  friend std::strong_ordering operator<=>(const TreeTerm& a, const TreeTerm& b);
};

// A path is the sequence of child positions from the root.
using TermPath = std::vector<std::uint32_t>;

TreeTerm to_tree(const Term& t, Term::Index root);
inline TreeTerm to_tree(const Term& t) {
  return to_tree(t, t.root());
}
Term to_term(const TreeTerm& t);

// The subterm at `path` (throws std::out_of_range for a bad path).
const TreeTerm& subterm(const TreeTerm& t, const TermPath& path);
TreeTerm& subterm(TreeTerm& t, const TermPath& path);

std::size_t tree_size(const TreeTerm& t);

} // namespace volta::egraph
