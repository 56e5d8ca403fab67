#include "engine/rules_check/trusted_axioms.hpp"

#include <algorithm>
#include <gmpxx.h>

namespace volta::rules_check {

using egraph::TreeTerm;

const std::vector<TrustedAxiom>& trusted_axioms() {
  static const std::vector<TrustedAxiom> axioms = {
      {"tanh-as-exp", "(tanh ?a) = (/ (+ (exp (* 2 ?a)) -1) (+ (exp (* 2 ?a)) 1))",
       "the definition of tanh; the divisor exceeds 1, so both sides are defined where ?a is"},
      {"max-identity", "(max -inf ?xs...) = (max ?xs...)",
       "-inf is below every real, so it never is the maximum of a nonempty list; both sides "
       "are defined where every element is"},
      {"min-identity", "(min inf ?xs...) = (min ?xs...)",
       "+inf is above every real, so it never is the minimum of a nonempty list; both sides "
       "are defined where every element is"},
  };
  return axioms;
}

namespace {

class AxiomPass {
public:
  AxiomPass(algebra::MlLanguage& ml, std::set<std::string>* used) : ml_(ml), used_(used) {}

  TreeTerm apply(const TreeTerm& t) {
    TreeTerm out{t.op, t.payload, {}};
    for (const auto& c : t.children)
      out.children.push_back(apply(c));
    if (out.op == ml_.tanh && out.children.size() == 1)
      return tanh_as_exp(out.children[0]);
    if (out.op == ml_.max)
      return drop_identity(std::move(out), ml_.neg_inf, "max-identity");
    if (out.op == ml_.min)
      return drop_identity(std::move(out), ml_.pos_inf, "min-identity");
    return out;
  }

private:
  TreeTerm number(long n) { return TreeTerm{ml_.num, ml_.lang.intern_rational(mpq_class(n)), {}}; }

  TreeTerm tanh_as_exp(const TreeTerm& a) {
    note("tanh-as-exp");
    const TreeTerm e{ml_.exp, 0, {TreeTerm{ml_.mul, 0, {number(2), a}}}};
    return TreeTerm{
        ml_.div, 0, {TreeTerm{ml_.add, 0, {e, number(-1)}}, TreeTerm{ml_.add, 0, {e, number(1)}}}};
  }

  // max(-inf, xs...) = max(xs...) (min likewise) while an element other than the identity
  // remains; max of one element is that element.
  TreeTerm drop_identity(TreeTerm node, egraph::OpId identity, const char* name) {
    auto is_identity = [&](const TreeTerm& c) { return c.op == identity && c.children.empty(); };
    const auto identities = std::count_if(node.children.begin(), node.children.end(), is_identity);
    if (identities == 0 || static_cast<size_t>(identities) == node.children.size())
      return node; // nothing to drop, or nothing but the identity
    note(name);
    std::erase_if(node.children, is_identity);
    if (node.children.size() == 1)
      return std::move(node.children[0]);
    return node;
  }

  void note(const char* name) {
    if (used_)
      used_->insert(name);
  }

  algebra::MlLanguage& ml_;
  std::set<std::string>* used_;
};

} // namespace

TreeTerm apply_trusted_axioms(const TreeTerm& t, algebra::MlLanguage& ml,
                              std::set<std::string>* used) {
  return AxiomPass(ml, used).apply(t);
}

} // namespace volta::rules_check
