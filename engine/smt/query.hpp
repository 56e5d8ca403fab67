// One Z3 query: a context that lives as long as the query, a budget, and checks that always end.
// Z3 contexts are not thread-safe, so every query (and every thread) gets its own; nothing here
// is shared between queries. Every way a check can fail (timeout, resource limit, cancellation,
// a Z3 exception, a crash of Z3, running out of memory) becomes Status::Unknown with a reason,
// never an exception, a crash or a hang.
//
// Two ways to run a check (Budget::isolate):
//  - in a child process killed at the deadline (default): a hard cap even where Z3 ignores
//    interrupts (engine/smt/isolated_check.hpp);
//  - in process, with Z3's soft timeout plus a watchdog thread that calls context::interrupt()
//    at the deadline (engine/smt/watchdog.hpp): cheaper, but only as hard as Z3's own
//    cancellation checks, which 4.8.12's nonlinear arithmetic skips.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>
#include <z3++.h>

#include "engine/smt/isolated_check.hpp"
#include "engine/smt/solve_once.hpp"
#include "engine/smt/watchdog.hpp"

namespace volta::smt {

struct Budget {
  // Wall-clock limit of the whole query (every check together); 0 = none.
  unsigned timeout_ms = 10'000;
  // Z3 resource units per check (`rlimit`): unlike time, the same on every machine and run, so
  // tests and benchmarks can fix it for reproducible UNKNOWNs; 0 = none.
  unsigned rlimit = 0;
  // Raised by another thread to stop the query early (noticed within about 20 ms).
  const std::atomic<bool>* cancel = nullptr;
  // Run each check in a child process (see above).
  bool isolate = true;
  // Address-space limit of that child in MiB (Z3 then fails with "out of memory"); 0 = none.
  // Not usable under AddressSanitizer, which reserves terabytes of address space.
  unsigned memory_mb = 0;
};

class Query {
public:
  explicit Query(const Budget& budget);
  ~Query();
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  // Building terms may throw z3::exception; callers convert it with unknown_from_exception().
  z3::context& ctx() { return *ctx_; }

  // Checks the conjunction of `assertions` (in a fresh solver) within what is left of the
  // budget; when sat, reads the observed terms from the model (CheckResult::values).
  CheckResult check(const z3::expr_vector& assertions, const std::vector<z3::expr>& observe = {},
                    Procedure procedure = Procedure::Default);

  // An Unknown result for an exception thrown while building terms of this query.
  CheckResult unknown_from_exception(const std::string& what) const;

  double elapsed_seconds() const;
  // When the budget's time runs out (time_point::max() without a timeout).
  Clock::time_point deadline() const { return deadline_; }

private:
  CheckResult check_in_process(const z3::expr_vector& assertions,
                               const std::vector<z3::expr>& observe, Procedure procedure);
  // Rewrites Z3's reasons for its limits ("canceled", "timeout") into which limit it was.
  void explain_limits(CheckResult& r) const;
  std::string timeout_reason() const;

  Budget budget_;
  Clock::time_point start_;
  Clock::time_point deadline_;
  // Held while this thread may touch Z3 (isolated_check.hpp); declared before the context so
  // that it is let go only after the context is gone.
  std::unique_ptr<IsolationHold> hold_;
  std::unique_ptr<z3::context> ctx_;
  // Once interrupted, a context is not trusted again: Z3 may keep its cancel flag set.
  bool interrupted_ = false;
};

} // namespace volta::smt
