// The comparison of the emulator cross-check (docs/semantics.md, "The emulator cross-check"):
// what both kernels stored on one input, element by element, against the claim EQUIVALENT.
//
// Which stores contradict the proof, on an input where the contract's idealizations do not
// explain them:
//   - a real-valued array (reals within rounding): the reference stores a number (finite) and
//     the optimized kernel a NaN or an infinity, or leaves an `out` element unwritten;
//   - an integer array (integer data, and float data compared by its bits): any difference.
// What explains a difference (the input's comparisons are then `excused`, noted, never failed):
//   - for real arrays: the reference made a NaN or an infinity from numbers, or overflowed or
//     underflowed (its value is then not the real one, or it is undefined there over the reals:
//     refinement leaves the optimized kernel free); the optimized kernel overflowed or
//     underflowed (float overflow and underflow are roundings, idealized by the contract), or made
//     a NaN or an infinity from numbers after it rounded (a cancellation to an exact 0 before a
//     division: the rounding is idealized). A NaN or an infinity the optimized kernel made from
//     numbers *without* any rounding (0/0, x/0, sqrt(-1) of its own) is not excused: the
//     reference is defined there;
//   - for integer arrays: either kernel rounded a float operation at all (an integer computed
//     from float data, through a conversion or a comparison, is exact only over the reals).
// The reference storing a NaN or an infinity leaves the element undefined: not compared.
// An element both kernels compute exactly (CrossCheckArray::exact) must hold the very same
// number (in an integer-typed array, the very same bytes, real data included), whatever
// overflowed elsewhere, unless the reference left its domain on that input (a
// NaN or an infinity from numbers): its proof may rest on that domain (a NaN test of rsqrt(x)
// decided false), and the events are the run's, not the element's.
// Finite pairs further apart than rounding explains are noted ("worth a look"), never failed:
// the contract reads float arithmetic over the reals, and a long sum rounds.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/cross_check.hpp"
#include "engine/emulate/emulator.hpp"
#include "engine/emulate/float_semantics.hpp"

namespace volta::emulate {

// One input's runs of both kernels, with what each did beyond real arithmetic.
struct EmulatedPair {
  const EmulationResult* reference = nullptr;
  const EmulationResult* optimized = nullptr;
  RealArithmeticEvents reference_events;
  RealArithmeticEvents optimized_events;
  uint32_t input = 0; // the input set
};

// Compares `arrays` (the arrays the proof compared) of one input's runs, both of which
// succeeded, and adds to `check`: the comparison counts, each array's divergence, notes, and
// the first contradiction. Where `check.tolerance` is set, each real element where neither
// kernel left the reals is held to it (CrossCheckDivergence::beyond_tolerance).
//
// `sampled`: the runs are of some CTAs of each launch only (EmulateOptions::ctas); an element is
// then compared only where both runs wrote it — one the other run left alone may be written by
// another CTA of that launch, and an `inout` element's value there may not be final.
void compare_outputs(const std::vector<CrossCheckArray>& arrays, const EmulatedPair& pair,
                     CrossCheck& check, bool sampled = false);

// How a device value reads in a report: "1.5 (f32)", "nan (f32, bits 0x7fffffff)",
// "-3 (s32, bits 0xfffffffd)", "nothing (not written)"; with `integer`, an array the emulator
// reads as floats (no declared type) shows its bits: "bits 0x00000005 (4 bytes)".
std::string device_value_text(const ArrayContents& a, uint64_t index, bool integer = false);

// The distance of two encodings of one float format in units in the last place (both finite).
uint64_t ulp_distance(uint64_t a, uint64_t b, uint32_t width);

} // namespace volta::emulate
