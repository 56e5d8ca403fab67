// The Z3 fallback of the element prover: the last resort for an element whose
// canonical forms differ and where random evaluation found no difference. With ground facts
// about exp, sqrt, tanh, ... (ground_laws.hpp) it asks Z3 two questions:
//   1. can the values differ at a point where both sides are defined?
//        sat -> NOT_EQUIVALENT when the engine's own evaluation confirms the model's point,
//               else UNKNOWN (the model relies on the uninterpreted functions)
//   2. (with divisions, roots or logs) can one side be defined where the other is not?
//        sat -> UNKNOWN (equal on the common domain only)
//   unsat to both -> EQUIVALENT (how = "z3"): at every real point both sides are undefined, or
//   both are defined and equal. Unknown, timeout, refusal, Z3 error -> UNKNOWN with the reason.
// docs/smt.md has the soundness argument. Thread-safe: every call builds its own Z3 context and
// runs its checks in child processes, so a FallbackProver may be called from many TBB tasks.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/prove/domain_conditions.hpp"
#include "engine/prove/element_prover.hpp"
#include "engine/smt/ground_laws.hpp"
#include "engine/smt/query.hpp"
#include "engine/smt/translate.hpp"

namespace volta::smt {

struct Z3Options {
  Budget budget; // per element: timeout_ms (hard, watchdog), rlimit, cancel
  TranslateOptions translate;
  LawOptions laws;
  // The fallback then returns nullopt instead of an UNKNOWN outcome, so that the prover reports
  // its own reason.
  bool decline_unknown = false;
  // Counts the elements sent to Z3 (not those refused before translation); may be null.
  std::atomic<uint64_t>* queries = nullptr;
};

// Decides one element pair with Z3; never throws.
// A model is a counterexample only in `specification`'s domain (when given).
prove::ElementOutcome decide_with_z3(const symbolic::ExprStore& store, symbolic::ExprId ref,
                                     symbolic::ExprId opt, const std::string& element,
                                     const Z3Options& options = {},
                                     const prove::SpecificationDomain* specification = nullptr);

// The FallbackProver to install in ProveOptions::fallback; `timeout_ms` overrides
// options.budget.timeout_ms (0 = no limit).
prove::FallbackProver make_z3_fallback(unsigned timeout_ms, Z3Options options = {});

// The DomainProver to install in ProveOptions::domain_prover: UNSAT of "the query predicate
// holds, every operation in it defined" (with the ground laws of exp, sqrt, ...) discharges an
// obligation; SAT leaves it to the prover's own search; anything else is nullopt.
prove::DomainProver make_z3_domain_prover(unsigned timeout_ms, Z3Options options = {});

} // namespace volta::smt
