// The emulator cross-check of an EQUIVALENT (docs/semantics.md, "The emulator cross-check"):
// after the proof, both kernels run on the bit-exact emulator on a few inputs chosen to hit the
// edges, and their stores are compared element by element. A store that contradicts the proof
// — the reference stores a number where the optimized kernel stores a NaN or an infinity, or an
// integer output differs — turns the verdict into INCONSISTENT, with the element, both device
// values and the input. Built by the emulator (engine/emulate/cross_check_run.hpp), decided by
// the entry (engine/entry/), shown by reports.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/index_ranges.hpp"

namespace volta {

// What the proof compared in one output array, which decides how the emulator's stores are
// compared: `real` values within rounding (a NaN or an infinity where the reference stores a
// number contradicts the proof), integer values (and float data compared by its bits, an array
// declared with an integer type) exactly.
struct CrossCheckArray {
  std::string name;
  bool real = true; // some compared element holds a real value (else every one is an integer)
  // The elements both kernels compute without rounding (symbolic/exact_terms.hpp): equal on the
  // device wherever the reference's is a number.
  IndexRanges exact;
};

// A float tolerance as a contract (`--float-tolerance rel=1e-3,abs=1e-5`, an entry's
// `"float_tolerance"`): the rule of numpy's allclose, element by element, with the reference as
// the expected value. An element is beyond it where |reference - optimized| > abs + rel *
// |reference|, on an input where neither kernel left the reals (an overflow, an underflow, a NaN
// from numbers: excused as for the divergence). EQUIVALENT stays the verdict; an EQUIVALENT
// with an element beyond its tolerance fails (docs/semantics.md, "Float divergence").
struct FloatTolerance {
  double rel = 0;
  double abs = 0;
  bool operator==(const FloatTolerance&) const = default;
};

// What the cross-check needs from the proof: the compared arrays, and the symbolic runs'
// thread-instruction counts, which bound the emulated work.
struct CrossCheckRequest {
  std::vector<CrossCheckArray> arrays;
  uint64_t reference_instructions = 0;
  uint64_t optimized_instructions = 0;
  double proof_seconds = 0; // what the entry took so far (a time budget may be a share of it)
  const std::atomic<bool>* cancel = nullptr; // the entry's cancel flag (a guard, an interrupt)
  std::optional<FloatTolerance> tolerance;   // the entry's float tolerance, if any
};

// The element where the emulator contradicts the proof.
struct CrossCheckContradiction {
  std::string element;          // "C[31]"
  std::string reference_device; // "1.5 (f32)"
  std::string optimized_device; // "nan (f32)", "nothing (not written)"
  uint32_t input = 0;           // the input set (emulate/edge_inputs.hpp) that shows it
  std::string input_name;       // its name: "moderate", "specials", "wide"
  std::string why;              // "a number in the reference, NaN in the optimized kernel"
};

// How far the two kernels' stores of one compared array are apart, over the inputs where
// neither kernel did anything the contract idealizes beyond rounding (an overflow, an
// underflow to zero, a NaN or infinity from numbers): the float divergence of issue 35.
struct CrossCheckDivergence {
  std::string array;
  std::string compared_as; // "real" or "integer"
  uint64_t elements = 0;   // element comparisons, over every input
  double max_abs = 0;      // the largest |reference - optimized| over finite pairs
  double max_rel = 0;      // the largest |reference - optimized| / |reference| (reference != 0)
  uint64_t max_ulp = 0;    // the largest distance in units in the last place (same format)
  std::string max_element; // where max_abs was reached ("" when every pair was equal)
  uint32_t max_input = 0;  // and on which input set
  // The largest |reference - optimized| over the largest |reference| of the array on the same
  // input: the difference relative to the array's scale, which an output the reference makes
  // near zero (a sum whose terms cancel over the reals) does not blow up as max_rel.
  double max_scaled = 0;
  // Elements apart beyond rounding: relative difference above max(1e-2, 32 ulp) and absolute
  // above 1e-3 of the array's scale (the "worth a look" rule). A kernel that loses precision
  // this way (a catastrophic cancellation, a term absorbed by a larger one) is warned about.
  uint64_t beyond_rounding = 0;
  // Elements beyond the entry's float tolerance (CrossCheck::tolerance), and the first one in
  // words ("y[3] on input 'moderate': 0.5 (f32) (reference) vs 0 (f32) (optimized)").
  uint64_t beyond_tolerance = 0;
  std::string beyond_tolerance_example;
};

struct CrossCheck {
  bool ran = false;           // false: skipped, with the reason
  std::string skipped_reason; // "the emulator does not support ... (PTX line 40)"
  uint32_t inputs = 0;        // input sets compared
  uint32_t inputs_planned = 0;
  uint64_t elements = 0; // element comparisons, over every input
  // Comparisons not held against the proof: on that input a kernel did what the contract
  // idealizes (an overflow, an underflow, or the reference a NaN or an infinity from numbers).
  uint64_t excused = 0;
  uint64_t instructions = 0; // emulated thread-instructions, both kernels, every input
  uint32_t reused_runs = 0;  // kernel runs taken from earlier entries (the same kernel and input)
  double seconds = 0;
  double budget_seconds = 0; // what it was allowed to cost (0: no budget)
  // A sample of each launch instead of the whole (linear CTA indices; empty: every CTA run).
  std::vector<uint32_t> reference_ctas, optimized_ctas;
  // What was compared, in words: "3 input sets, CTAs {0, 15} of 16, 512 elements compared"
  // (empty when skipped).
  std::string checked;
  // Worth a look, never a failure: floats apart beyond rounding on an input where neither
  // kernel overflowed, differences the contract's idealizations explain, inputs not run.
  std::vector<std::string> notes;
  std::vector<CrossCheckDivergence> arrays;
  std::optional<CrossCheckContradiction> contradiction;
  std::optional<FloatTolerance> tolerance; // the contract the stores were held to, if any

  // Some compared element is beyond the float tolerance: the EQUIVALENT fails.
  bool beyond_tolerance() const {
    for (const CrossCheckDivergence& d : arrays)
      if (d.beyond_tolerance != 0)
        return true;
    return false;
  }

  // The tolerance's status in the reports' words: "" (no tolerance), "beyond", "within" (every
  // element compared is within it), "not_measured" (the cross-check was skipped: the contract
  // is not checked, and not failed — the proof still stands).
  std::string_view tolerance_status() const {
    if (!tolerance)
      return "";
    if (beyond_tolerance())
      return "beyond";
    return ran ? "within" : "not_measured";
  }
};

} // namespace volta
