// A concrete counterexample to an equivalence: the element, an input point, and what each kernel
// computes there. Built by the prover and the solver, executed by the emulator, shown by reports.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace volta {

// A point of a kernel's source: a PTX instruction and, from its .loc, the CUDA line.
struct SourcePoint {
  uint32_t ptx_line = 0;
  std::string instruction; // as printed
  std::string cuda_file;   // empty without .loc
  uint32_t cuda_line = 0;
};

// Where a differing element is made in each kernel: the store that wrote it, and the first point
// where the two computations part (engine/entry/difference_site.hpp).
struct DifferenceLocation {
  std::optional<SourcePoint> reference_store, optimized_store;
  // The deepest pair of subterms whose values differ at the counterexample while their operands
  // agree (or are inputs), printed, with their values there...
  std::string reference_subterm, optimized_subterm;
  std::string reference_subterm_value, optimized_subterm_value;
  // ...and, for each kernel, the instruction that made the differing subterm, or, for an input
  // or a constant, the operation above it whose operands differ (`parting_uses` is then true)...
  std::optional<SourcePoint> reference_parting, optimized_parting;
  bool reference_parting_uses = false, optimized_parting_uses = false;
  // ...and, for an input (or any subterm above which the instruction is named), the instruction
  // that first put it in a register: the load of a shared-memory tile's halo that another thread
  // then read.
  std::optional<SourcePoint> reference_origin, optimized_origin;
  std::string note; // what could not be located, and why (empty: nothing missing)
};

// Where a counterexample's two stores agree on the emulator (their difference over the reals is
// below rounding there), a nearby input point where they do not: the difference as the device
// shows it (engine/emulate/counterexample_run.hpp).
struct DeviceWitness {
  std::vector<std::pair<std::string, std::string>> inputs; // every other input 0
  std::string reference_device;                            // what each stores at the element
  std::string optimized_device;
};

// What the search for a device witness may spend beyond the counterexample's own run: it stops
// at the entry's time limit or when the entry is cancelled, besides its own small budget.
struct WitnessSearchLimits {
  std::optional<std::chrono::steady_clock::time_point> deadline; // none: no time limit
  const std::atomic<bool>* cancel = nullptr;                     // may be null
};

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
  // Non-empty where the reference's run at this input left the reals (divided by zero, made a
  // NaN or an infinity from numbers): the input may lie outside the reference's domain, where no
  // difference is a counterexample. A claim not checked against all of the reference's assumptions
  // (a streamed group's) is withdrawn then.
  std::string reference_undefined_on_device;
  // Set where reference_device and optimized_device are equal and a small search on the
  // emulator found a point where the element's stores differ.
  std::optional<DeviceWitness> device_witness;
  // For an element the prover found to differ: where in the sources (null: not located).
  std::optional<DifferenceLocation> location;
};

} // namespace volta
