// One fuzz pair end to end: generate (or regenerate) it from (seed, index), write its PTX,
// prove it in-process as `volta-eg prove` would, run both kernels on the emulator, and judge the
// verdict against what the emulator shows.
//
// A *disagreement* is a verdict the emulator contradicts:
//   eq-differs-exact      EQUIVALENT, but on an input where every float operation of both
//                         kernels is exact and defined (the contract and IEEE agree there) the
//                         kernels store different outputs;
//   eq-bits-differ        EQUIVALENT, but bits (an integer, or a float read as bits) differ on an
//                         input where the reference is defined, through no real-number observer
//                         (a float comparison or conversion to integer, which the contract
//                         idealizes);
//   eq-opt-undefined      EQUIVALENT, but on an input where the reference is exact and defined
//                         the optimized kernel computes something undefined over the reals;
//   eq-racy, false-race, false-safety   race and safety verdicts against the construction;
//   neq-false-counterexample   NOT_EQUIVALENT, but at the tool's own counterexample both kernels
//                         store the same outputs and compute exactly;
//   crash / exception / error  the tool failed (an ERROR verdict on input the generator means to
//                         be valid is a bug of one of the two).
// A *suspicious* finding needs a human: differences where float rounding is observed by a
// comparison, float results far apart on inexact inputs, NaN where the reference is finite...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "emulator_inputs.hpp"
#include "engine/counterexample.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/verdict.hpp"
#include "fuzz_ir.hpp"
#include "kernel_generator.hpp"
#include "mutator.hpp"

namespace volta::pair_fuzz {

struct PairCase {
  uint64_t seed = 0, index = 0;
  Kernel ref, opt;
  Label label = Label::EqBits;
  std::vector<AppliedMutation> applied;
  bool swapped = false; // the mutant is the reference
};

PairCase make_case(uint64_t seed, uint64_t index, const GenOptions& gen = {});

struct CheckOptions {
  double prove_timeout = 30; // seconds per pair (the entry's guard)
  bool z3 = true;
  // The fraction of pairs proved with the Z3 fallback (chosen by the pair's index, so a replay
  // proves the same way); the others prove without it (Z3 queries dominate the time).
  double z3_fraction = 1.0;
  unsigned z3_timeout_ms = 2000;
  int exact_sets = 2, moderate_sets = 1, special_sets = 1;
  std::string work_dir; // where the PTX files go (one folder per worker)
};

enum class Severity : uint8_t { Disagreement, Suspicious };

struct Finding {
  Severity severity = Severity::Suspicious;
  std::string kind;
  std::string message;
  int input_set = -1; // the emulator input set that shows it (-1: none)
};

struct InputSet {
  InputClass cls = InputClass::Exact;
  emulate::Inputs inputs;
};

struct CheckResult {
  Verdict verdict = Verdict::Error;
  std::string detail;
  std::string guard;
  std::optional<Counterexample> counterexample;
  std::vector<Finding> findings;
  std::vector<InputSet> inputs; // the emulator inputs used (to write reproducers)
  bool ref_racy = false, opt_racy = false;
  int exact_inputs = 0; // input sets on which both kernels computed exactly
  double prove_seconds = 0, oracle_seconds = 0;
  bool used_z3 = false;
  // The files of the pair (in work_dir) and the entry as proved.
  std::string ref_ptx, opt_ptx;
  launch::ManifestEntry entry;
};

CheckResult check_pair(const PairCase& c, const CheckOptions& options);

// The launch configuration of a fuzz kernel (`instrumented`: with the flags array last).
launch::KernelConfig kernel_config(const Kernel& k, const std::string& ptx_path,
                                   const std::string& entry, bool instrumented);

} // namespace volta::pair_fuzz
