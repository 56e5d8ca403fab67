// One Z3 check in the calling thread: a fresh solver over the given assertions, the answer with
// Z3's own reason, and the model's values of the observed terms as text. Shared by the two ways
// a query runs (engine/smt/query.hpp): in process under the watchdog, or in a child process.
#pragma once

#include <string>
#include <vector>
#include <z3++.h>

namespace volta::smt {

enum class Status { Sat, Unsat, Unknown };
const char* status_name(Status s);

struct CheckResult {
  Status status = Status::Unknown;
  std::string reason; // Unknown: why (Z3's reason_unknown(), the limit hit, the exception)
  // Sat: the model's value of each observed term: a rational "-3/4" for a real term (for an
  // irrational algebraic number, a rational within 1e-30 of it), "true"/"false" for a Boolean,
  // "" when the model gives nothing usable.
  std::vector<std::string> values;
  double seconds = 0;
};

// Which Z3 procedure runs a check.
enum class Procedure {
  Default,        // Z3's own choice by logic (slow to set up: ~60 ms per check)
  NonlinearReals, // the `qfnra` tactic (nlsat): complete for real arithmetic without functions
  WithFunctions,  // the `smt` tactic: the core that handles uninterpreted functions
};

struct SolveSettings {
  unsigned soft_timeout_ms = 0; // Z3's `timeout` parameter; 0 = not set
  unsigned rlimit = 0;          // Z3's `rlimit` parameter; 0 = not set
  Procedure procedure = Procedure::Default;
};

// Never throws: Z3 exceptions and allocation failures become Unknown ("Z3 error: ...").
// A fresh solver per check: an incremental one (push/pop) would always run the smt core, which
// lacks nlsat and whose nonlinear arithmetic ignores interrupts.
CheckResult solve_once(z3::context& ctx, const z3::expr_vector& assertions,
                       const std::vector<z3::expr>& observe, const SolveSettings& settings);

// A model value as text, as in CheckResult::values.
std::string value_text(z3::context& ctx, const z3::expr& value);

} // namespace volta::smt
