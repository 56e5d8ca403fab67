// One Z3 query: a context and a solver that live and die together, with a budget. Z3 contexts
// are not thread-safe, so every query (and every thread) gets its own; nothing here is shared.
// Every way a check can fail (timeout, resource limit, cancellation, a Z3 exception, running out
// of memory) becomes Status::Unknown with a reason, never an exception or a hang.
#pragma once

#include "engine/smt/watchdog.hpp"

#include <atomic>
#include <string>
#include <z3++.h>

namespace volta::smt {

enum class Status { Sat, Unsat, Unknown };
const char* status_name(Status s);

struct CheckResult {
  Status status = Status::Unknown;
  std::string reason; // Unknown: why (Z3's reason_unknown(), the timeout, the exception)
  double seconds = 0;
};

struct Budget {
  // Wall-clock limit of the whole query (every check together), enforced by a watchdog thread
  // that interrupts Z3; 0 = none.
  unsigned timeout_ms = 10'000;
  // Z3 resource units per check (`rlimit`): unlike time, the same on every machine and run, so
  // tests and benchmarks can fix it for reproducible UNKNOWNs; 0 = none.
  unsigned rlimit = 0;
  // Raised by another thread to stop the query early (checked about every 20 ms).
  const std::atomic<bool>* cancel = nullptr;
};

class Query {
public:
  explicit Query(const Budget& budget);
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  z3::context& ctx() { return ctx_; }

  // Building terms and asserting them may throw z3::exception; callers convert it with
  // unknown_from_exception().
  void add(const z3::expr& e) { solver_.add(e); }
  void add(const z3::expr_vector& facts) { solver_.add(facts); }
  void push() { solver_.push(); }
  void pop() { solver_.pop(); }

  // Checks the assertions within what is left of the budget.
  CheckResult check();
  // The model of the last check, which must have been Sat.
  z3::model model() { return solver_.get_model(); }

  // An Unknown result for an exception thrown while building or reading terms of this query (an
  // interrupt surfaces as such an exception when it lands outside check()).
  CheckResult unknown_from_exception(const std::string& what) const;

  double elapsed_seconds() const;

private:
  std::string timeout_reason() const;

  Budget budget_;
  Clock::time_point start_;
  Clock::time_point deadline_;
  z3::context ctx_;
  z3::solver solver_;
  // Once interrupted, a context is not trusted again: Z3 may keep its cancel flag set.
  bool interrupted_ = false;
};

} // namespace volta::smt
