#include "engine/smt/z3_fallback.hpp"

#include <fmt/format.h>
#include <new>

#include "engine/prove/input_views.hpp"
#include "engine/smt/confirm.hpp"
#include "engine/symbolic/printer.hpp"

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

// An element the translation refused: Z3 was never asked (and `z3_calls` does not count it), so
// the reason must not read as Z3's answer.
ElementOutcome not_sent(const TranslationRefusal& refusal) {
  ElementOutcome out;
  out.kind = Kind::Unknown;
  out.reason = "not sent to Z3: " + refusal.reason;
  if (refusal.too_large)
    out.limit = prove::Limit::Z3TranslationSize;
  return out;
}

ElementOutcome not_equivalent(Counterexample c) {
  ElementOutcome out;
  out.kind = Kind::NotEquivalent;
  out.decided_by = prove::Decision::Z3Counterexample;
  out.counterexample = std::move(c);
  return out;
}

const char* const kUnrealModel =
    "Z3 found a model that is not a real counterexample (it relies on the uninterpreted "
    "functions)";
// A model of the element alone, where the reference is undefined through another element or a
// branch (it divides by 0 there): the optimized kernel may store anything on such an input.
const char* const kOutsideReferenceDomain =
    "Z3's model differs only where the reference is undefined (a domain condition of it on "
    "another element or a branch fails there), so it is no counterexample; the query does not "
    "carry the reference's other conditions";

const char* const kDeviceValuesDiffer =
    "the kernels round to an integer (cvt.rni/rzi/rmi/rpi) floats they compute as different IEEE "
    "operations (another rounding mode, order or association): equal over the reals, but such a "
    "rounding observes the device's value, so only the same computation is decided equal "
    "(docs/semantics.md, \"Floats observed as bits\")";

// "A[0] = 0, B[3] = 1/2" for the first leaves of a model point (zeros included: they matter
// here, a divisor is often zero because an input is).
std::string describe(const symbolic::ExprStore& store, const Translation& t,
                     const symbolic::Assignment& point) {
  std::string out;
  size_t shown = 0;
  for (const auto& [leaf, constant] : t.leaves) {
    if (shown == 6) {
      out += ", ...";
      break;
    }
    const uint64_t key = symbolic::Assignment::key_of(store, leaf);
    auto it = point.values.find(key);
    if (shown++)
      out += ", ";
    out += symbolic::leaf_name(store, leaf) + " = " +
           (it == point.values.end() ? "0" : it->second.get_str());
  }
  return out;
}

// `laws` and `claim` in a new vector (copying a z3::expr_vector shares it).
z3::expr_vector with(const z3::expr_vector& laws, const z3::expr& claim) {
  z3::expr_vector out(laws.ctx());
  for (unsigned i = 0; i < laws.size(); ++i)
    out.push_back(laws[i]);
  out.push_back(claim);
  return out;
}

z3::expr holds(z3::context& ctx, const std::optional<z3::expr>& condition) {
  return condition ? *condition : ctx.bool_val(true);
}

ElementOutcome decide(Query& q, const symbolic::ExprStore& store, ExprId ref, ExprId opt,
                      const std::string& element, const Z3Options& options,
                      const prove::SpecificationDomain* specification) {
  TranslateOptions translate = options.translate;
  translate.cancel = options.budget.cancel;
  auto translated = translate_pair(q.ctx(), store, ref, opt, translate);
  if (auto* refused = std::get_if<std::string>(&translated))
    return not_sent(TranslationRefusal{*refused}); // translation_refusal let it through
  if (options.queries)
    options.queries->fetch_add(1, std::memory_order_relaxed);
  const Translation& t = std::get<Translation>(translated);
  z3::context& ctx = q.ctx();
  const z3::expr ref_defined = holds(ctx, t.ref_defined), opt_defined = holds(ctx, t.opt_defined);
  LawOptions law_options = options.laws;
  law_options.deadline = std::min(law_options.deadline, q.deadline());
  law_options.cancel = options.budget.cancel;
  const z3::expr_vector laws = ground_laws(ctx, store, t, law_options);
  std::vector<z3::expr> observe = leaf_constants(t);
  const Procedure procedure = procedure_for(t);
  if (t.device_values_differ)
    return unknown(kDeviceValuesDiffer);

  // 1. The values: is there a point where both sides are defined and differ? Z3's division is
  //    total, so without the domain conditions a model could divide by zero; with them, UNSAT
  //    means equal at every real point where both are defined.
  CheckResult r =
      q.check(with(laws, ref_defined && opt_defined && t.ref != t.opt), observe, procedure);
  if (r.status == Status::Unknown)
    return unknown(r.reason);
  if (r.status == Status::Sat) {
    const symbolic::Assignment point = point_from_values(t, store, r.values);
    if (auto c = confirm_point(store, ref, opt, element, point, specification))
      return not_equivalent(std::move(*c));
    if (specification != nullptr && confirm_point(store, ref, opt, element, point))
      return unknown(kOutsideReferenceDomain);
    if (t.device_values > 0)
      return unknown(kDeviceValuesDiffer);
    return unknown(kUnrealModel);
  }

  // 2. The domains: equal values on the common domain are not enough when one side is
  //    undefined (divides by zero, takes sqrt of a negative) where the other is not: the kernels
  //    then differ (inf or NaN against a number) and 0 * (1/x) = 0 must not be claimed.
  // (Nothing to ask when neither side has a condition or both have the same one.)
  if ((t.ref_defined || t.opt_defined) && !z3::eq(ref_defined, opt_defined)) {
    observe.push_back(ref_defined);
    r = q.check(with(laws, ref_defined != opt_defined), observe, procedure);
    if (r.status == Status::Unknown) {
      return unknown("the values agree wherever both sides are defined, but whether they are "
                     "defined at the same points is unknown: " +
                     r.reason);
    }
    if (r.status == Status::Sat) {
      const bool ref_there = r.values.back() == "true";
      r.values.pop_back();
      // The model's views of an element are independent symbols: where they disagree, the
      // point is no input a GPU can be given, and the message says so rather than show it as
      // one (reconciling them would move the point off the model).
      const symbolic::Assignment at = point_from_values(t, store, r.values);
      symbolic::Assignment reconciled = at;
      const bool real =
          prove::reconcile_views(store, symbolic::leaves_below(store, {ref, opt}), reconciled) &&
          reconciled.values == at.values;
      return unknown(fmt::format(
          "the values agree wherever both sides are defined, but the {} side is undefined "
          "(division by zero or a root or log outside its domain) where the {} is not, e.g. at "
          "{}{}",
          ref_there ? "optimized" : "reference", ref_there ? "reference" : "optimized",
          describe(store, t, at),
          real ? ""
               : " (a point of the solver's model whose integer and real views of an element "
                 "disagree: it may be no input a GPU can be given)"));
    }
  }
  ElementOutcome out;
  out.kind = Kind::Equivalent;
  out.decided_by = prove::Decision::Z3;
  return out;
}

} // namespace

ElementOutcome decide_with_z3(const symbolic::ExprStore& store, ExprId ref, ExprId opt,
                              const std::string& element, const Z3Options& options,
                              const prove::SpecificationDomain* specification) {
  if (ref == opt) {
    ElementOutcome out;
    out.kind = Kind::Equivalent;
    out.decided_by = prove::Decision::SameNode;
    return out;
  }
  try {
    if (auto refused = translation_refusal(store, ref, opt, options.translate))
      return not_sent(*refused);
    Query q(options.budget);
    try {
      return decide(q, store, ref, opt, element, options, specification);
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
  return [options](
             const symbolic::ExprStore& store, ExprId ref, ExprId opt, const std::string& element,
             const prove::SpecificationDomain* specification) -> std::optional<ElementOutcome> {
    ElementOutcome out = decide_with_z3(store, ref, opt, element, options, specification);
    if (out.kind == Kind::Unknown && options.decline_unknown)
      return std::nullopt;
    return out;
  };
}

prove::DomainProver make_z3_domain_prover(unsigned timeout_ms, Z3Options options) {
  options.budget.timeout_ms = timeout_ms;
  return [options](const symbolic::ExprStore& store, ExprId query) -> std::optional<bool> {
    try {
      if (translation_refusal(store, query, query, options.translate))
        return std::nullopt;
      Query q(options.budget);
      try {
        TranslateOptions translate = options.translate;
        translate.cancel = options.budget.cancel;
        auto translated = translate_pair(q.ctx(), store, query, query, translate);
        if (std::holds_alternative<std::string>(translated))
          return std::nullopt;
        const Translation& t = std::get<Translation>(translated);
        z3::context& ctx = q.ctx();
        LawOptions law_options = options.laws;
        law_options.deadline = std::min(law_options.deadline, q.deadline());
        law_options.cancel = options.budget.cancel;
        const z3::expr_vector laws = ground_laws(ctx, store, t, law_options);
        const CheckResult r =
            q.check(with(laws, holds(ctx, t.ref_defined) && t.ref != 0), {}, procedure_for(t));
        if (r.status == Status::Unsat)
          return true;
        if (r.status == Status::Sat)
          return false;
        return std::nullopt;
      } catch (const z3::exception&) {
        return std::nullopt;
      }
    } catch (const std::exception&) { // Z3 errors, out of memory: undecided
      return std::nullopt;
    }
  };
}

} // namespace volta::smt
