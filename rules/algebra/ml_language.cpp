#include "rules/algebra/ml_language.hpp"

namespace volta::algebra {

using egraph::kVariadic;
using egraph::PayloadKind;

MlLanguage make_ml_language() {
  MlLanguage m;
  egraph::Language& l = m.lang;
  m.num = l.add_op("num", 0, false, PayloadKind::Rational);
  m.sym = l.add_op("sym", 0, false, PayloadKind::Symbol);
  m.opaque = l.add_op("opaque", 0, false, PayloadKind::Raw);
  m.ln2 = l.add_op("ln2", 0);
  m.pos_inf = l.add_op("inf", 0);
  m.neg_inf = l.add_op("-inf", 0);
  m.add = l.add_op("+", kVariadic, true);
  m.mul = l.add_op("*", kVariadic, true);
  m.max = l.add_op("max", kVariadic, true);
  m.min = l.add_op("min", kVariadic, true);
  m.div = l.add_op("/", 2);
  m.neg = l.add_op("neg", 1);
  m.exp = l.add_op("exp", 1);
  m.ex2 = l.add_op("ex2", 1);
  m.sqrt = l.add_op("sqrt", 1);
  m.rsqrt = l.add_op("rsqrt", 1);
  m.log2 = l.add_op("log2", 1);
  m.sin = l.add_op("sin", 1);
  m.cos = l.add_op("cos", 1);
  m.tanh = l.add_op("tanh", 1);
  m.abs = l.add_op("abs", 1);
  m.lt = l.add_op("lt", 2);
  m.le = l.add_op("le", 2);
  m.gt = l.add_op("gt", 2);
  m.ge = l.add_op("ge", 2);
  m.eq = l.add_op("eq", 2);
  m.ne = l.add_op("ne", 2);
  m.land = l.add_op("and", 2);
  m.lor = l.add_op("or", 2);
  m.lxor = l.add_op("xor", 2);
  m.lnot = l.add_op("not", 1);
  m.select = l.add_op("select", 3);
  l.set_constant_op(m.num);
  l.set_symbol_op(m.sym);
  return m;
}

} // namespace volta::algebra
