#include "egraph/rewrite.hpp"

#include <stdexcept>

#include "egraph/egraph.hpp"

namespace volta::egraph {

Rewrite Rewrite::parse(Language& lang, std::string name, std::string_view lhs, std::string_view rhs,
                       Condition condition) {
  Rewrite r;
  r.name = std::move(name);
  r.lhs = Pattern::parse(lhs, lang).value();
  r.rhs = Pattern::parse_rhs(rhs, lang, r.lhs).value();
  r.condition = std::move(condition);
  return r;
}

Rewrite Rewrite::with_applier(Language& lang, std::string name, std::string_view lhs,
                              ApplierFn applier, Condition condition) {
  Rewrite r;
  r.name = std::move(name);
  r.lhs = Pattern::parse(lhs, lang).value();
  r.applier = std::move(applier);
  r.condition = std::move(condition);
  return r;
}

std::vector<Rewrite> Rewrite::parse_bidirectional(Language& lang, std::string name,
                                                  std::string_view lhs, std::string_view rhs) {
  std::vector<Rewrite> out;
  out.push_back(parse(lang, name, lhs, rhs));
  out.push_back(parse(lang, name + "-rev", rhs, lhs));
  return out;
}

namespace {

class Instantiator {
public:
  Instantiator(EGraph& g, const Pattern& p, const Subst& s, bool flatten)
      : g_(g), p_(p), s_(s), flatten_(flatten) {}

  Id build(std::uint32_t i) {
    const PatNode& n = p_.node(i);
    switch (n.kind) {
    case PatNode::Kind::Var:
      return s_[n.var];
    case PatNode::Kind::Rest: {
      const auto kids = s_.rest(n.var);
      return g_.add(p_.vars().var(n.var).rest_op, kids);
    }
    case PatNode::Kind::Op:
      break;
    }
    std::vector<Id> kids;
    children(i, n.op, kids);
    return g_.add(NodeView{n.op, n.payload, kids});
  }

private:
  void children(std::uint32_t i, OpId op, std::vector<Id>& out) {
    const bool ac = g_.language().is_ac(op);
    for (auto c : p_.children(i)) {
      const PatNode& cn = p_.node(c);
      if (ac && cn.kind == PatNode::Kind::Rest && p_.vars().var(cn.var).rest_op == op) {
        const auto rest = s_.rest(cn.var);
        out.insert(out.end(), rest.begin(), rest.end());
      } else if (ac && flatten_ && cn.kind == PatNode::Kind::Op && cn.op == op) {
        children(c, op, out);
      } else {
        out.push_back(build(c));
      }
    }
  }

  EGraph& g_;
  const Pattern& p_;
  const Subst& s_;
  bool flatten_;
};

} // namespace

Id instantiate(EGraph& g, const Pattern& rhs, const Subst& s) {
  return Instantiator(g, rhs, s, true).build(rhs.root());
}

Id instantiate_exact(EGraph& g, const Pattern& lhs, const Subst& s) {
  return Instantiator(g, lhs, s, false).build(lhs.root());
}

} // namespace volta::egraph
