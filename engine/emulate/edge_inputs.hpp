// Inputs that hit the edges, for the emulator cross-check of an EQUIVALENT
// (engine/emulate/cross_check_run.hpp, docs/semantics.md "The emulator cross-check").
//
// Three input sets, the one most likely to hit an edge first (a time budget may run only it),
// each a pure function of (set, array name, element index), so that both
// kernels of an entry read the same value from an array they name alike, and a set can be
// recreated anywhere (`volta-eg run --cross-check-input K`):
//
//   set 0 "specials"  floats of magnitude in [1/4, 4), random sign, 1 in 16 exactly +0;
//                     integers small ([-8, 8] signed, [0, 16] unsigned), with 1 element in 4 a
//                     special bit pattern of its width: IEEE NaNs with payloads, infinities,
//                     -0, subnormals, the largest finite values (f32, f16, bf16, f64 and 8-bit
//                     float encodings), and integers that overflow a narrower float (65504,
//                     65520, 70000) or round in f32 (2^24 + 1);
//   set 1 "moderate"  floats of magnitude in [1/8, 2); integers small;
//   set 2 "wide"      floats of magnitude in [2^-10, 2^10) (about 1e-3 to 1e3); integers: 1 in
//                     4 special, 1 in 2 uniformly random over the full width, 1 in 4 small.
//
// Float arrays never get a NaN, an infinity, a -0 or a subnormal: over the reals of the
// contract they are not inputs. Only integer-typed arrays (the integer view of data, read
// through bit reinterpretation) carry those patterns. Magnitudes stay moderate so that the
// arithmetic of ordinary kernels does not overflow (an overflow is idealized by the contract;
// the cross-check recognizes it through RealArithmeticEvents and does not hold it against the
// proof). Symbolic parameters get m/16 with m in [2, 32] and a random sign: exact in every
// float format. `index` arrays keep the emulator's a[i] = i; `zero` and `out` arrays are no
// inputs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "engine/emulate/emulator.hpp"

namespace volta::emulate {

inline constexpr uint32_t kEdgeInputSets = 3;

// "moderate", "specials", "wide" (set must be below kEdgeInputSets).
std::string_view edge_input_name(uint32_t set);

// The element types an emulation of `config` reads its arrays in: the declared ones (the
// manifest's "type"); arrays not listed take default_elem_type.
std::map<std::string, ElemType> declared_elem_types(const launch::KernelConfig& config);

// The inputs of input set `set` for a kernel of `config`. `value_types` gives the element type
// the values of an array are made for (the reference kernel's, so that both kernels read the
// same bytes); an array not listed there, or listed with another width, uses its own type.
// The result's `types` are `config`'s declared types.
//
// `made` (may be null): the same set already made for another kernel with the same
// `value_types`, which list every array of that kernel: an array of the same name, length and
// width is copied from it rather than made again (the bytes are the same).
struct MadeInputs {
  const launch::KernelConfig* config;
  const Inputs* inputs;
};
Inputs edge_inputs(const launch::KernelConfig& config, uint32_t set,
                   const std::map<std::string, ElemType>& value_types = {},
                   const MadeInputs* made = nullptr);

// The same inputs with every array made on demand (Inputs::generated), page by page: a run
// that touches a few pages of a large array makes only those. Byte for byte what
// edge_inputs() makes.
Inputs generated_edge_inputs(const launch::KernelConfig& config, uint32_t set,
                             const std::map<std::string, ElemType>& value_types = {});

// One element's bits as edge_inputs() makes them (exposed for the tests).
uint64_t edge_element_bits(uint32_t set, std::string_view array, uint64_t index, ElemType type);

} // namespace volta::emulate
