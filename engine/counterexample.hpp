// A concrete counterexample to an equivalence: the element, an input point, and what each kernel
// computes there. Built by the prover and the solver, executed by the emulator, shown by reports.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace volta {

// A concrete counterexample to an equivalence.
struct Counterexample {
  std::string element;                                     // "O[37]"
  std::vector<std::pair<std::string, std::string>> inputs; // symbol -> exact value
  std::string reference_value;
  std::string optimized_value;
  std::string reference_expr;
  std::string optimized_expr;
  bool confirmed = false; // checked by exact (or interval) evaluation
  // What each kernel stores at this input on the bit-exact emulator (IEEE arithmetic), beside
  // the values over the reals above; empty when not executed, with the reason in device_note.
  std::string reference_device;
  std::string optimized_device;
  std::string device_note;
};

} // namespace volta
