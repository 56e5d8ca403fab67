// Runs one Z3 check in a child process that is killed at the deadline. Needed because
// interrupting Z3 4.8.12 is not a hard cap either: its nonlinear arithmetic (the Groebner basis
// step of the incremental core) ignores context::interrupt() and was seen running for minutes
// past it (tests/smt/query_test.cpp reproduces this). A killed child cannot hang or crash us.
//
// The child is a fork of this process: it reads the query from its copy of the Z3 context, so
// nothing is serialized, and sends back only the answer and the observed model values. A fork
// copies no other thread, so any lock another thread holds at that moment stays locked in the
// child. Z3's global locks (symbol table, memory counters) are therefore taken care of: every
// thread that builds or destroys Z3 terms through Query holds IsolationGuard shared, and the
// fork happens with it held exclusively. glibc's malloc is fork-safe by itself.
#pragma once

#include <atomic>
#include <vector>
#include <z3++.h>

#include "engine/smt/solve_once.hpp"
#include "engine/smt/watchdog.hpp"

namespace volta::smt {

// A thread's shared hold of the guard that forks take exclusively. Counted per thread, so that
// several queries alive in one thread share one hold.
class IsolationHold {
public:
  IsolationHold();
  ~IsolationHold();
  IsolationHold(const IsolationHold&) = delete;
  IsolationHold& operator=(const IsolationHold&) = delete;
};

struct ChildLimits {
  Clock::time_point deadline = Clock::time_point::max();
  const std::atomic<bool>* cancel = nullptr;
  unsigned rlimit = 0;
  unsigned memory_mb = 0; // address-space limit of the child; 0 = none
  Procedure procedure = Procedure::Default;
};

// The calling thread must have an IsolationHold; the hold is let go while the child runs and
// taken again before returning. Unknown reasons: "timeout" (killed at the deadline), "cancelled",
// "Z3 process crashed (signal N)", or the child's own reason.
CheckResult check_in_child(z3::context& ctx, const z3::expr_vector& assertions,
                           const std::vector<z3::expr>& observe, const ChildLimits& limits);

} // namespace volta::smt
