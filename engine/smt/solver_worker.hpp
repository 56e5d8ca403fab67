// A small pre-forked process that runs the isolated Z3 checks. check_in_child forks the whole
// prover for every query, and once the expression store holds gigabytes each fork (its page
// tables, its copy-on-write faults) costs more than many queries do. The worker is forked once,
// early, while the process is small; for each query it receives the assertions as SMT-LIB text
// and forks a child of its own that parses them, runs the same solve_once under the same limits
// (address space, rlimit) and writes the reply to a pipe the querying thread reads within the
// query's deadline, killing the child at the deadline or on cancel, as check_in_child does.
// When the worker is not running (never started, or gone), callers fall back to check_in_child.
#pragma once

#include <optional>
#include <vector>
#include <z3++.h>

#include "engine/smt/isolated_check.hpp"

namespace volta::smt {

// Starts the worker (once per process; later calls do nothing). Call it before the process grows
// and before it starts threads that use Z3. False when it cannot be started.
bool start_solver_worker();

// Whether queries go to the worker.
bool solver_worker_running();

// Runs one check in a child of the worker; nullopt when the worker is not running or the query
// cannot be written as SMT-LIB (the caller then uses check_in_child).
std::optional<CheckResult> check_in_worker(z3::context& ctx, const z3::expr_vector& assertions,
                                           const std::vector<z3::expr>& observe,
                                           const ChildLimits& limits);

} // namespace volta::smt
