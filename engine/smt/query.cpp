#include "engine/smt/query.hpp"

#include <fmt/format.h>
#include <optional>

#include "engine/smt/solver_worker.hpp"

namespace volta::smt {

Query::Query(const Budget& budget)
    : budget_(budget), start_(Clock::now()),
      deadline_(budget.timeout_ms ? start_ + std::chrono::milliseconds(budget.timeout_ms)
                                  : Clock::time_point::max()) {
  // Held in both modes: an in-process query must not be inside Z3 while another thread forks.
  hold_ = std::make_unique<IsolationHold>();
  ctx_ = std::make_unique<z3::context>();
}

Query::~Query() {
  ctx_.reset();
}

double Query::elapsed_seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

std::string Query::timeout_reason() const {
  if (budget_.cancel && budget_.cancel->load())
    return "cancelled";
  return fmt::format("timeout after {} ms ({})", budget_.timeout_ms,
                     budget_.isolate ? "the Z3 process was stopped"
                                     : "Z3 interrupted by the watchdog");
}

CheckResult Query::unknown_from_exception(const std::string& what) const {
  CheckResult r;
  r.reason = interrupted_ ? timeout_reason() : "Z3 error: " + what;
  r.seconds = elapsed_seconds();
  return r;
}

void Query::explain_limits(CheckResult& r) const {
  if (r.status != Status::Unknown)
    return;
  const std::string& why = r.reason;
  const bool limit = why == "timeout" || why == "canceled" || why == "interrupted" ||
                     why.find("resource") != std::string::npos;
  if (!limit) {
    if (why.rfind("Z3", 0) != 0 && why != "cancelled")
      r.reason = "Z3: " + why;
    return;
  }
  const bool late = budget_.timeout_ms && Clock::now() + std::chrono::milliseconds(5) >= deadline_;
  if (budget_.cancel && budget_.cancel->load()) {
    r.reason = "cancelled";
  } else if (budget_.rlimit && !late) {
    r.reason = fmt::format("resource limit (rlimit {}) exhausted (Z3: {})", budget_.rlimit, why);
  } else if (budget_.timeout_ms) {
    r.reason = fmt::format("timeout after {} ms (Z3: {})", budget_.timeout_ms, why);
  } else {
    r.reason = "Z3: " + why;
  }
}

CheckResult Query::check(const z3::expr_vector& assertions, const std::vector<z3::expr>& observe,
                         Procedure procedure) {
  const auto started = Clock::now();
  auto early = [&](std::string reason) {
    CheckResult r;
    r.reason = std::move(reason);
    return r;
  };
  if (interrupted_)
    return early(timeout_reason());
  if (budget_.cancel && budget_.cancel->load())
    return early("cancelled");
  if (started >= deadline_)
    return early(timeout_reason());

  if (!budget_.isolate)
    return check_in_process(assertions, observe, procedure);
  const ChildLimits limits{deadline_, budget_.cancel, budget_.rlimit, budget_.memory_mb, procedure};
  std::optional<CheckResult> from_worker = check_in_worker(*ctx_, assertions, observe, limits);
  CheckResult r =
      from_worker ? std::move(*from_worker) : check_in_child(*ctx_, assertions, observe, limits);
  if (r.status == Status::Unknown && r.reason == "timeout") {
    r.reason = timeout_reason();
  } else if (r.status == Status::Unknown && r.reason != "cancelled") {
    explain_limits(r);
  }
  return r;
}

CheckResult Query::check_in_process(const z3::expr_vector& assertions,
                                    const std::vector<z3::expr>& observe, Procedure procedure) {
  SolveSettings settings;
  settings.procedure = procedure;
  settings.rlimit = budget_.rlimit;
  if (budget_.timeout_ms) {
    // The soft limit usually ends the check with a clean "timeout"; the watchdog is the backstop
    // for the procedures that do not look at it.
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
    settings.soft_timeout_ms = static_cast<unsigned>(std::max<long long>(1, left.count()));
  }
  std::optional<Watchdog> watchdog;
  if (budget_.timeout_ms || budget_.cancel)
    watchdog.emplace(*ctx_, deadline_, budget_.cancel);
  CheckResult r = solve_once(*ctx_, assertions, observe, settings);
  const bool fired = watchdog && watchdog->fired();
  watchdog.reset(); // joined: the context is ours alone again
  if (fired) {
    interrupted_ = true;
    // An UNSAT that was complete before the interrupt landed is still an answer; a model read
    // while the interrupt landed may be cut short, so SAT is not trusted.
    if (r.status != Status::Unsat) {
      r.status = Status::Unknown;
      r.values.clear();
      r.reason = timeout_reason();
    }
    return r;
  }
  explain_limits(r);
  return r;
}

} // namespace volta::smt
