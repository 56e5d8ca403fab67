#include "engine/smt/confirm.hpp"

#include "engine/prove/domain_conditions.hpp"
#include "engine/prove/input_views.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::smt {

using symbolic::Assignment;
using symbolic::ExprId;
using symbolic::Rational;

namespace {

uint64_t key_of(const symbolic::ExprStore& store, ExprId leaf) {
  return Assignment::key_of(store, leaf);
}

} // namespace

Assignment point_from_values(const Translation& t, const symbolic::ExprStore& store,
                             const std::vector<std::string>& values) {
  Assignment point;
  for (size_t i = 0; i < t.leaves.size() && i < values.size(); ++i) {
    Rational q;
    if (values[i].empty() || q.set_str(values[i], 10) != 0)
      continue;
    q.canonicalize();
    point.values[key_of(store, t.leaves[i].first)] = std::move(q);
  }
  return point;
}

std::vector<z3::expr> leaf_constants(const Translation& t) {
  std::vector<z3::expr> out;
  out.reserve(t.leaves.size());
  for (const auto& [leaf, constant] : t.leaves)
    out.push_back(constant);
  return out;
}

std::optional<Counterexample> confirm_point(const symbolic::ExprStore& store, ExprId ref,
                                            ExprId opt, const std::string& element,
                                            const Assignment& given,
                                            const prove::SpecificationDomain* specification) {
  // The model treats an element's real and integer views as independent symbols; an input a GPU
  // can be given has them agree (docs/semantics.md, "Inputs have two views").
  Assignment point = given;
  // The reference's assumptions may read inputs the model does not value (other elements):
  // they take 1, where divisors, logarithms and square roots of a lone input are defined. Their
  // views are made to agree with the element's too.
  std::vector<ExprId> leaves = symbolic::leaves_below(store, {ref, opt});
  if (specification != nullptr) {
    for (ExprId leaf : specification->leaves())
      point.values.emplace(key_of(store, leaf), Rational(1));
    leaves = specification->with_leaves(std::move(leaves));
  }
  if (!prove::reconcile_views(store, leaves, point))
    return std::nullopt;
  symbolic::Evaluator ev(store, point);
  const symbolic::EvalValue a = ev.eval(ref), b = ev.eval(opt);
  if (!symbolic::certainly_different(a, b))
    return std::nullopt;
  if (specification != nullptr && !specification->defined_at(ev))
    return std::nullopt;
  Counterexample c;
  c.element = element;
  c.confirmed = true;
  c.reference_value = a.to_string();
  c.optimized_value = b.to_string();
  c.reference_expr = symbolic::to_sexpr(store, ref, 600);
  c.optimized_expr = symbolic::to_sexpr(store, opt, 600);
  // Like the prover's own counterexamples: the leaves in their deterministic order, zeros left
  // out (an input that is not listed is 0).
  for (ExprId leaf : leaves) {
    auto it = point.values.find(key_of(store, leaf));
    if (it != point.values.end() && it->second != 0) {
      c.inputs.emplace_back(symbolic::leaf_name(store, leaf), it->second.get_str());
    }
  }
  return c;
}

} // namespace volta::smt
