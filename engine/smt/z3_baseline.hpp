// The Z3-only baseline of the benchmarks: Z3 run directly on the translation of an element
// pair, the way a verifier without our canonical forms would use it. No ground laws, no domain
// conditions (Z3's total division), just `ref != opt` over uninterpreted exp/sqrt/... . The
// benchmark harness compares the prover against it (docs/smt.md).
#pragma once

#include <optional>
#include <string>

#include "engine/counterexample.hpp"
#include "engine/prove/element_prover.hpp"
#include "engine/smt/query.hpp"
#include "engine/smt/translate.hpp"

namespace volta::smt {

struct BaselineResult {
  // Equivalent on unsat; NotEquivalent only on a sat model that the engine's evaluation
  // confirms; Unknown otherwise (including an unconfirmed sat and a refused translation).
  prove::ElementOutcome::Kind verdict = prove::ElementOutcome::Kind::Unknown;
  Status z3_status = Status::Unknown; // what Z3 itself answered
  bool translated = false;            // false: refused before Z3 ran
  std::string reason;                 // Unknown: why
  std::optional<Counterexample> counterexample;
  double seconds = 0; // wall time, translation included
};

// Never throws; thread-safe like decide_with_z3 (one context per call).
BaselineResult z3_baseline(const symbolic::ExprStore& store, symbolic::ExprId ref,
                           symbolic::ExprId opt, const std::string& element,
                           const Budget& budget = {}, const TranslateOptions& translate = {});

} // namespace volta::smt
