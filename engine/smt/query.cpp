#include "engine/smt/query.hpp"

#include <fmt/format.h>
#include <new>
#include <optional>

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

Query::Query(const Budget& budget)
    : budget_(budget), start_(Clock::now()),
      deadline_(budget.timeout_ms ? start_ + std::chrono::milliseconds(budget.timeout_ms)
                                  : Clock::time_point::max()),
      solver_(ctx_) {}

double Query::elapsed_seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

std::string Query::timeout_reason() const {
  if (budget_.cancel && budget_.cancel->load())
    return "cancelled";
  return fmt::format("timeout after {} ms (Z3 interrupted by the watchdog)", budget_.timeout_ms);
}

CheckResult Query::unknown_from_exception(const std::string& what) const {
  CheckResult r;
  r.reason = interrupted_ ? timeout_reason() : "Z3 error: " + what;
  r.seconds = elapsed_seconds();
  return r;
}

CheckResult Query::check() {
  CheckResult r;
  const auto started = Clock::now();
  auto finish = [&](Status s, std::string reason) {
    r.status = s;
    r.reason = std::move(reason);
    r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    return r;
  };
  if (interrupted_)
    return finish(Status::Unknown, timeout_reason());
  if (budget_.cancel && budget_.cancel->load())
    return finish(Status::Unknown, "cancelled");
  if (started >= deadline_)
    return finish(Status::Unknown, timeout_reason());

  try {
    z3::params p(ctx_);
    if (budget_.timeout_ms) {
      // The soft limit usually ends the check with a clean "timeout"; the watchdog below is the
      // hard cap for the procedures that do not look at it.
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - started);
      p.set("timeout", static_cast<unsigned>(std::max<long long>(1, left.count())));
    }
    if (budget_.rlimit)
      p.set("rlimit", budget_.rlimit);
    solver_.set(p);

    std::optional<Watchdog> watchdog;
    if (budget_.timeout_ms || budget_.cancel)
      watchdog.emplace(ctx_, deadline_, budget_.cancel);
    z3::check_result z;
    try {
      z = solver_.check();
    } catch (const z3::exception&) {
      interrupted_ = watchdog && watchdog->fired();
      throw;
    }
    const bool fired = watchdog && watchdog->fired();
    watchdog.reset(); // joined: the context is ours alone again
    interrupted_ = fired;
    if (fired) {
      // The interrupt may land just after Z3 answered; an answer it gave is still valid, but the
      // context is not used again.
      if (z == z3::unsat)
        return finish(Status::Unsat, "");
      return finish(Status::Unknown, timeout_reason());
    }
    switch (z) {
    case z3::sat:
      return finish(Status::Sat, "");
    case z3::unsat:
      return finish(Status::Unsat, "");
    default: {
      // Z3 says "canceled" (sometimes "timeout") for both of its limits: tell them apart.
      std::string why = solver_.reason_unknown();
      const bool limit =
          why == "timeout" || why == "canceled" || why.find("resource") != std::string::npos;
      const bool late =
          budget_.timeout_ms && Clock::now() + std::chrono::milliseconds(5) >= deadline_;
      if (limit && budget_.rlimit && !late) {
        why = fmt::format("resource limit (rlimit {}) exhausted (Z3: {})", budget_.rlimit, why);
      } else if (limit && budget_.timeout_ms) {
        why = fmt::format("timeout after {} ms (Z3: {})", budget_.timeout_ms, why);
      } else {
        why = "Z3: " + why;
      }
      return finish(Status::Unknown, why);
    }
    }
  } catch (const z3::exception& e) {
    return finish(Status::Unknown,
                  interrupted_ ? timeout_reason() : "Z3 error: " + std::string(e.msg()));
  } catch (const std::bad_alloc&) {
    return finish(Status::Unknown, "Z3 ran out of memory");
  }
}

} // namespace volta::smt
