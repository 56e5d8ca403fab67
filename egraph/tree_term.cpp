#include "egraph/tree_term.hpp"

#include <stdexcept>

namespace volta::egraph {

std::strong_ordering operator<=>(const TreeTerm& a, const TreeTerm& b) {
  if (auto c = a.op <=> b.op; c != 0)
    return c;
  if (auto c = a.payload <=> b.payload; c != 0)
    return c;
  if (auto c = a.children.size() <=> b.children.size(); c != 0)
    return c;
  for (std::size_t i = 0; i < a.children.size(); ++i)
    if (auto c = a.children[i] <=> b.children[i]; c != 0)
      return c;
  return std::strong_ordering::equal;
}

TreeTerm to_tree(const Term& t, Term::Index root) {
  TreeTerm out{t.op(root), t.payload(root), {}};
  const auto kids = t.children(root);
  out.children.reserve(kids.size());
  for (auto k : kids)
    out.children.push_back(to_tree(t, k));
  return out;
}

namespace {
Term::Index append_tree(Term& out, const TreeTerm& t) {
  std::vector<Term::Index> kids;
  kids.reserve(t.children.size());
  for (const auto& c : t.children)
    kids.push_back(append_tree(out, c));
  return out.add(t.op, kids, t.payload);
}
} // namespace

Term to_term(const TreeTerm& t) {
  Term out;
  append_tree(out, t);
  return out;
}

const TreeTerm& subterm(const TreeTerm& t, const TermPath& path) {
  const TreeTerm* cur = &t;
  for (auto i : path) {
    if (i >= cur->children.size())
      throw std::out_of_range("subterm: path leaves the term");
    cur = &cur->children[i];
  }
  return *cur;
}

TreeTerm& subterm(TreeTerm& t, const TermPath& path) {
  return const_cast<TreeTerm&>(subterm(static_cast<const TreeTerm&>(t), path));
}

std::size_t tree_size(const TreeTerm& t) {
  std::size_t n = 1;
  for (const auto& c : t.children)
    n += tree_size(c);
  return n;
}

} // namespace volta::egraph
