// Prints a fuzz kernel as PTX (ISA 8.0, sm_80), plain for the prover, or instrumented for the
// oracle's emulator runs.
//
// The instrumented kernel computes exactly what the plain one computes and, after every live
// float operation, checks on the bit-exact emulator whether that operation was *exact* (its
// IEEE result equals the real-number result: the same under the round-down and round-up modes,
// not flushed, finite) and whether it was *defined* over the reals (no NaN from finite operands,
// no division of a nonzero by zero...). Each thread ORs what it saw into a word of an extra
// `u32` output array (`__fz_flags`, two words per thread): on an input where every float
// operation of both kernels was exact, the real-number semantics of the contract and the IEEE
// semantics of the emulator coincide, so two kernels proved EQUIVALENT must store the same
// outputs there bit for bit (floats as values).
#pragma once

#include <string>
#include <vector>

#include "fuzz_ir.hpp"

namespace volta::pair_fuzz {

// Bits of the first flag word.
enum FlagBits : uint32_t {
  kInexact = 1,       // a rounding, a flush to zero, or an overflow (idealized by the contract)
  kUndefined = 2,     // an operation undefined over the reals on a value that reaches an output
  kSpecial = 4,       // a float read from bits (a load, a reinterpretation, a constant) is NaN/inf
  kCondUndefined = 8, // undefined, on a value that reaches the outputs only through a select arm
  // A float input element loaded in its declared float type is NaN/inf: outside the contract,
  // whose float inputs are real numbers (kSpecial stays for what is read from bits)
  kSpecialRealInput = 16,
};
// The second word: the smallest node id with an undefined operation (0xffffffff: none).

struct WriteOptions {
  bool instrument = false;
};

// The name of the extra array of the instrumented kernel (its last parameter).
inline constexpr const char* kFlagsArray = "__fz_flags";

std::string write_ptx(const Kernel& k, const std::string& entry, const WriteOptions& o = {});

} // namespace volta::pair_fuzz
