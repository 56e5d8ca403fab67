#include "engine/smt/z3_fallback.hpp"

#include <new>

#include "engine/smt/confirm.hpp"

namespace volta::smt {

using prove::ElementOutcome;
using symbolic::ExprId;
using Kind = ElementOutcome::Kind;

namespace {

ElementOutcome unknown(std::string reason) {
  ElementOutcome out;
  out.kind = Kind::Unknown;
  out.reason = "z3: " + std::move(reason);
  return out;
}

ElementOutcome not_equivalent(driver::Counterexample c) {
  ElementOutcome out;
  out.kind = Kind::NotEquivalent;
  out.how = "z3 counterexample";
  out.counterexample = std::move(c);
  return out;
}

const char* const kUnrealModel =
    "Z3 found a model that is not a real counterexample (uninterpreted functions or a zero "
    "divisor)";

ElementOutcome decide(Query& q, const symbolic::ExprStore& store, ExprId ref, ExprId opt,
                      const std::string& element, const Z3Options& options) {
  auto translated = translate_pair(q.ctx(), store, ref, opt, options.translate);
  if (auto* refused = std::get_if<std::string>(&translated)) return unknown(*refused);
  const Translation& t = std::get<Translation>(translated);

  q.add(ground_laws(q.ctx(), t, options.laws));
  q.add(t.ref != t.opt);

  // 1. Division is Z3's total division (a/0 is an unspecified function of a): UNSAT means the
  //    values agree for every choice of those values, so at every real point where both are
  //    defined.
  CheckResult r = q.check();
  if (r.status == Status::Unsat) {
    ElementOutcome out;
    out.kind = Kind::Equivalent;
    out.how = "z3";
    return out;
  }
  if (r.status == Status::Unknown) return unknown(r.reason);
  z3::model model = q.model();
  if (auto c = confirm_point(store, ref, opt, element, point_from_model(q.ctx(), model, t, store))) {
    return not_equivalent(std::move(*c));
  }
  if (t.divisors.empty()) return unknown(kUnrealModel);

  // 2. The model may rely on a zero divisor. Look for a point where every divisor is nonzero:
  //    a confirmed one is a real counterexample; UNSAT only shows equality off the zeros of the
  //    divisors, which is not claimed (the zeros may fill a region: 1/max(x, 0)).
  const z3::expr zero = q.ctx().real_val(0);
  for (const z3::expr& d : t.divisors) q.add(d != zero);
  r = q.check();
  if (r.status == Status::Unsat) {
    return unknown(
        "the values agree wherever every divisor is nonzero, but a divisor can be zero and Z3 "
        "found the values may differ there; equality is not claimed");
  }
  if (r.status == Status::Unknown) return unknown(r.reason);
  model = q.model();
  if (auto c = confirm_point(store, ref, opt, element, point_from_model(q.ctx(), model, t, store))) {
    return not_equivalent(std::move(*c));
  }
  return unknown(kUnrealModel);
}

}  // namespace

ElementOutcome decide_with_z3(const symbolic::ExprStore& store, ExprId ref, ExprId opt,
                              const std::string& element, const Z3Options& options) {
  if (ref == opt) {
    ElementOutcome out;
    out.kind = Kind::Equivalent;
    out.how = "same node";
    return out;
  }
  try {
    Query q(options.budget);
    try {
      return decide(q, store, ref, opt, element, options);
    } catch (const z3::exception& e) {
      // Thrown while building terms or reading a model: an interrupt that landed outside a
      // check, a Z3 resource error, or a bug in the translation.
      return unknown(q.unknown_from_exception(e.msg()).reason);
    }
  } catch (const z3::exception& e) {
    return unknown("Z3 error: " + std::string(e.msg()));
  } catch (const std::bad_alloc&) {
    return unknown("out of memory");
  } catch (const std::exception& e) {
    return unknown(std::string("internal error: ") + e.what());
  }
}

prove::FallbackProver make_z3_fallback(unsigned timeout_ms, Z3Options options) {
  options.budget.timeout_ms = timeout_ms;
  return [options](const symbolic::ExprStore& store, ExprId ref, ExprId opt,
                   const std::string& element) -> std::optional<ElementOutcome> {
    ElementOutcome out = decide_with_z3(store, ref, opt, element, options);
    if (out.kind == Kind::Unknown && options.decline_unknown) return std::nullopt;
    return out;
  };
}

}  // namespace volta::smt
