#include "engine/smt/z3_baseline.hpp"

#include <new>

#include "engine/smt/confirm.hpp"

namespace volta::smt {

using Kind = prove::ElementOutcome::Kind;

namespace {

void run(Query& q, const symbolic::ExprStore& store, symbolic::ExprId ref, symbolic::ExprId opt,
         const std::string& element, const TranslateOptions& options, BaselineResult& out) {
  auto translated = translate_pair(q.ctx(), store, ref, opt, options);
  if (auto* refused = std::get_if<std::string>(&translated)) {
    out.reason = *refused;
    return;
  }
  out.translated = true;
  const Translation& t = std::get<Translation>(translated);
  z3::expr_vector differ(q.ctx());
  differ.push_back(t.ref != t.opt);
  const CheckResult r = q.check(differ, leaf_constants(t), procedure_for(t));
  out.z3_status = r.status;
  switch (r.status) {
  case Status::Unsat:
    out.verdict = Kind::Equivalent;
    return;
  case Status::Unknown:
    out.reason = r.reason;
    return;
  case Status::Sat: {
    out.counterexample =
        confirm_point(store, ref, opt, element, point_from_values(t, store, r.values));
    if (out.counterexample) {
      out.verdict = Kind::NotEquivalent;
    } else {
      out.reason = "sat, but the model is not a real counterexample";
    }
    return;
  }
  }
}

} // namespace

BaselineResult z3_baseline(const symbolic::ExprStore& store, symbolic::ExprId ref,
                           symbolic::ExprId opt, const std::string& element, const Budget& budget,
                           const TranslateOptions& translate) {
  BaselineResult out;
  const auto start = Clock::now();
  try {
    if (auto refused = translation_refusal(store, ref, opt, translate)) {
      out.reason = refused->reason;
      out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      return out;
    }
    Query q(budget);
    try {
      run(q, store, ref, opt, element, translate, out);
    } catch (const z3::exception& e) {
      out.verdict = Kind::Unknown;
      out.reason = q.unknown_from_exception(e.msg()).reason;
    }
  } catch (const z3::exception& e) {
    out.verdict = Kind::Unknown;
    out.reason = "Z3 error: " + std::string(e.msg());
  } catch (const std::bad_alloc&) {
    out.verdict = Kind::Unknown;
    out.reason = "out of memory";
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

} // namespace volta::smt
