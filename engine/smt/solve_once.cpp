#include "engine/smt/solve_once.hpp"

#include <chrono>
#include <new>

namespace volta::smt {

const char* status_name(Status s) {
  switch (s) {
  case Status::Sat:
    return "sat";
  case Status::Unsat:
    return "unsat";
  default:
    return "unknown";
  }
}

std::string value_text(z3::context& ctx, const z3::expr& value) {
  if (value.is_true())
    return "true";
  if (value.is_false())
    return "false";
  if (value.is_algebraic()) {
    const z3::expr lower(ctx, Z3_get_algebraic_number_lower(ctx, value, 30));
    ctx.check_error();
    return value_text(ctx, lower);
  }
  if (!value.is_numeral())
    return "";
  return Z3_get_numeral_string(ctx, value);
}

CheckResult solve_once(z3::context& ctx, const z3::expr_vector& assertions,
                       const std::vector<z3::expr>& observe, const SolveSettings& settings) {
  CheckResult r;
  const auto start = std::chrono::steady_clock::now();
  try {
    z3::solver solver =
        settings.procedure == Procedure::NonlinearReals  ? z3::tactic(ctx, "qfnra").mk_solver()
        : settings.procedure == Procedure::WithFunctions ? z3::tactic(ctx, "smt").mk_solver()
                                                         : z3::solver(ctx);
    z3::params p(ctx);
    if (settings.soft_timeout_ms)
      p.set("timeout", settings.soft_timeout_ms);
    if (settings.rlimit)
      p.set("rlimit", settings.rlimit);
    solver.set(p);
    solver.add(assertions);
    switch (solver.check()) {
    case z3::sat: {
      r.status = Status::Sat;
      z3::model model = solver.get_model();
      r.values.reserve(observe.size());
      // Model completion: a term the model leaves free gets a value (0 for reals).
      for (const z3::expr& e : observe)
        r.values.push_back(value_text(ctx, model.eval(e, true)));
      break;
    }
    case z3::unsat:
      r.status = Status::Unsat;
      break;
    default:
      r.status = Status::Unknown;
      r.reason = solver.reason_unknown();
      break;
    }
  } catch (const z3::exception& e) {
    r = CheckResult{};
    r.reason = "Z3 error: " + std::string(e.msg());
  } catch (const std::bad_alloc&) {
    r = CheckResult{};
    r.reason = "Z3 ran out of memory";
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

} // namespace volta::smt
