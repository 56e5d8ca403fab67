#include "egraph/arith.hpp"

#include "egraph/egraph.hpp"

namespace volta::egraph {

Arith make_arith() {
  Arith a;
  Language& l = a.lang;
  a.num = l.add_op("num", 0, false, PayloadKind::Rational);
  a.sym = l.add_op("sym", 0, false, PayloadKind::Symbol);
  a.add = l.add_op("+", kVariadic, true);
  a.mul = l.add_op("*", kVariadic, true);
  a.sub = l.add_op("-", 2);
  a.div = l.add_op("/", 2);
  a.neg = l.add_op("neg", 1);
  a.exp = l.add_op("exp", 1);
  a.max = l.add_op("max", kVariadic, true);
  a.min = l.add_op("min", kVariadic, true);
  l.set_constant_op(a.num);
  l.set_symbol_op(a.sym);
  return a;
}

ConstantFolding& add_arith_constant_folding(EGraph& g, Arith& a) {
  auto& cf = g.add_analysis<ConstantFolding>(a.lang, a.num);
  cf.set_fold(a.add, ConstantFolding::fold_add());
  cf.set_fold(a.mul, ConstantFolding::fold_mul());
  cf.set_fold(a.sub, ConstantFolding::fold_sub());
  cf.set_fold(a.div, ConstantFolding::fold_div());
  cf.set_fold(a.neg, ConstantFolding::fold_neg());
  cf.set_fold(a.exp, ConstantFolding::fold_exp());
  cf.set_fold(a.max, ConstantFolding::fold_max());
  cf.set_fold(a.min, ConstantFolding::fold_min());
  return cf;
}

} // namespace volta::egraph
