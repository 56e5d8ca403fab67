// Static facts about a fuzz kernel that the oracle needs to judge a difference the emulator
// shows: which values can carry a float rounding, which outputs observe such a value through a
// real-number observer (where the contract idealizes), which depend on the schedule, and
// whether the kernel races by construction.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "fuzz_ir.hpp"

namespace volta::pair_fuzz {

struct Taint {
  // Per node: a float value that may differ from its real value (a rounding, a flush, an
  // approximation), or a value computed from one.
  std::vector<bool> inexact;
  // Per node: depends on a real-number observer (a float comparison) of an inexact value: two
  // kernels equal over the reals may store different values here on a GPU, and the contract
  // allows it (float rounding is idealized). A rounding to an integer is no such observer: it
  // observes its operand's bits (docs/semantics.md, "Floats observed as bits").
  std::vector<bool> rounding_observed;
  // Per node: depends on the value an atomic returned (schedule-dependent).
  std::vector<bool> schedule;
  // Per output array: some store or atomic of it is rounding-observed / schedule-dependent /
  // a float atomic (order-dependent rounding).
  std::vector<bool> output_rounding_observed;
  std::vector<bool> output_schedule;
  std::vector<bool> output_float_atomic;
};

Taint analyze(const Kernel& k);

// Per node and half, what the instrumented kernel checks after it (ptx_writer.hpp): 0 (not
// live, or neither a float nor an integer division), kUndefined for a value that reaches an
// output unconditionally, kCondUndefined for one that reaches the outputs only through an arm of
// a select (whose condition guards its domain). Index 0 is the low half of a packed pair (f16x2,
// bf16x2), 1 the high one; a node that is not a pair has the same kind in both. Liveness follows
// halves: `cvt.rn.f16x2.f32 d, a, b` whose low half is never unpacked does not use `b`.
// `unchecked` (may be null): set when a live operation's check is given up (below an integer
// product with a factor that is the same on every input, see value_taint.cpp): the flags then
// do not show every domain the kernel leaves.
using HalfKinds = std::array<uint32_t, 2>;
std::vector<HalfKinds> instrument_kinds(const Kernel& k, bool* unchecked = nullptr);
// The kind to check where halves are not told apart (kUndefined over kCondUndefined; 0: none).
uint32_t any_half(const HalfKinds& kinds);

// Nodes whose value matters: reachable from a store, an atomic or a branch condition. The
// instrumented kernel prints only these (a dead integer division by zero traps the emulator,
// while a GPU computes an unspecified value and drops it).
std::vector<bool> observable_nodes(const Kernel& k);

// Does the kernel race by construction? Loads through a staging buffer read other threads'
// elements without the barrier, or cp.async bytes that no wait completed.
bool racy_by_construction(const Kernel& k);

} // namespace volta::pair_fuzz
