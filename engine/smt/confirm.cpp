#include "engine/smt/confirm.hpp"

#include "engine/symbolic/printer.hpp"

namespace volta::smt {

using prove::Assignment;
using symbolic::ExprId;
using symbolic::Rational;

namespace {

uint64_t key_of(const symbolic::ExprStore& store, ExprId leaf) {
  const symbolic::Node& n = store.node(leaf);
  return n.op == symbolic::Op::Param ? Assignment::param_key(n.a) : Assignment::input_key(n.a, n.b);
}

std::optional<Rational> numeral(z3::context& ctx, const z3::expr& e) {
  if (!e.is_numeral())
    return std::nullopt;
  Rational q;
  if (q.set_str(Z3_get_numeral_string(ctx, e), 10) != 0)
    return std::nullopt;
  q.canonicalize();
  return q;
}

} // namespace

std::optional<Rational> model_rational(z3::context& ctx, const z3::expr& value) {
  if (value.is_algebraic()) {
    const z3::expr lower(ctx, Z3_get_algebraic_number_lower(ctx, value, 30));
    ctx.check_error();
    return numeral(ctx, lower);
  }
  return numeral(ctx, value);
}

Assignment point_from_model(z3::context& ctx, z3::model& model, const Translation& t,
                            const symbolic::ExprStore& store) {
  Assignment point;
  for (const auto& [leaf, constant] : t.leaves) {
    // Model completion gives leaves the model left free a value (0) instead of the constant.
    if (auto q = model_rational(ctx, model.eval(constant, true)))
      point.values[key_of(store, leaf)] = *q;
  }
  return point;
}

std::optional<driver::Counterexample> confirm_point(const symbolic::ExprStore& store, ExprId ref,
                                                    ExprId opt, const std::string& element,
                                                    const Assignment& point) {
  prove::Evaluator ev(store, point);
  const prove::EvalValue a = ev.eval(ref), b = ev.eval(opt);
  if (!prove::certainly_different(a, b))
    return std::nullopt;
  driver::Counterexample c;
  c.element = element;
  c.confirmed = true;
  c.reference_value = a.to_string();
  c.optimized_value = b.to_string();
  c.reference_expr = symbolic::to_sexpr(store, ref, 600);
  c.optimized_expr = symbolic::to_sexpr(store, opt, 600);
  // Like the prover's own counterexamples: the leaves in their deterministic order, zeros left
  // out (an input that is not listed is 0).
  for (ExprId leaf : prove::leaves_below(store, {ref, opt})) {
    auto it = point.values.find(key_of(store, leaf));
    if (it != point.values.end() && it->second != 0) {
      c.inputs.emplace_back(symbolic::leaf_name(store, leaf), it->second.get_str());
    }
  }
  return c;
}

} // namespace volta::smt
