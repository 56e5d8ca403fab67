#include "egraph/term_flatten.hpp"

#include <algorithm>
#include <stdexcept>

namespace volta::egraph {

FlatTermPlan::FlatTermPlan(const Term& t, const Language& lang, std::span<const Term::Index> roots,
                           std::size_t max_flat_children)
    : t_(t), lang_(lang), needs_class_(t.size(), 0), splicable_(t.size(), 0) {
  for (auto r : roots)
    if (r >= t.size())
      throw std::out_of_range("add_term: root index outside the term");
  // Flattened sizes bottom-up (children precede parents in a Term); a node is splicable into a
  // parent with its operator when it is AC and not over the limit.
  std::vector<std::size_t> flat_size(t.size(), 1);
  for (Term::Index i = 0; i < t.size(); ++i) {
    if (!lang.is_ac(t.op(i)))
      continue;
    std::size_t n = 0;
    for (auto c : t.children(i))
      n += spliced(i, c) ? flat_size[c] : 1;
    flat_size[i] = n;
    splicable_[i] = n <= max_flat_children;
  }
  // Reachability from the roots, top-down; a node needs a class if it is a root or some
  // reachable parent does not splice it.
  std::vector<std::uint8_t> reachable(t.size(), 0);
  for (auto r : roots) {
    reachable[r] = 1;
    needs_class_[r] = 1;
  }
  for (std::size_t k = t.size(); k-- > 0;) {
    const auto i = static_cast<Term::Index>(k);
    if (!reachable[i])
      continue;
    for (auto c : t.children(i)) {
      reachable[c] = 1;
      if (!spliced(i, c))
        needs_class_[c] = 1;
    }
  }
}

void FlatTermPlan::flat_children(Term::Index i, std::vector<Term::Index>& out) const {
  if (!lang_.is_ac(t_.op(i))) {
    const auto kids = t_.children(i);
    out.insert(out.end(), kids.begin(), kids.end());
    return;
  }
  std::vector<Term::Index> stack;
  const auto kids = t_.children(i);
  stack.assign(kids.rbegin(), kids.rend());
  while (!stack.empty()) {
    const auto c = stack.back();
    stack.pop_back();
    if (spliced(i, c)) {
      const auto grand = t_.children(c);
      stack.insert(stack.end(), grand.rbegin(), grand.rend());
    } else {
      out.push_back(c);
    }
  }
}

} // namespace volta::egraph
