// Runs two kernels on the bit-exact emulator with the same inputs and compares what they store:
// the reusable half of the pair fuzzer's oracle (nothing here knows about verdicts).
//
// The kernels are the instrumented ones of ptx_writer.hpp: besides their outputs, each run
// says whether every live float operation was exact and defined over the reals on that input
// (the flags array, which is not compared).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/emulate/emulator.hpp"
#include "engine/exec/run_kernel.hpp"
#include "engine/launch/launch_config.hpp"

namespace volta::pair_fuzz {

struct SideRun {
  bool ok = false;
  std::string error_kind;                      // the emulator's ("undefined", "unsupported", ...)
  std::string error;                           // its text, with the PTX line
  std::vector<emulate::ArrayContents> outputs; // every output but the flags array
  uint32_t flags = 0;                          // the union over threads of the first flag word
  uint32_t first_undefined = ~0u;              // the smallest node id with an undefined operation
  bool has_flags = false;                      // the kernel was instrumented
};

// Runs `program` with `config` (whose last array is the flags array when `instrumented`).
SideRun run_side(const exec::Program& program, const launch::KernelConfig& config,
                 const emulate::Inputs& inputs, bool instrumented);

struct ElementDiff {
  std::string array;
  uint64_t index = 0;
  size_t array_position = 0; // position among the compared outputs
  std::string ref, opt;      // the values as text (numbers, or hex bits)
};

// The elements where two runs differ. `by_value[k]`: output k holds numbers in both kernels
// (compared as numbers: -0 == +0, NaN == NaN); otherwise its bytes are compared, except that
// where `signless_zero[k]` (a float array that one kernel fills with numbers, the other with
// integer bits) a zero equals a zero of either sign: the contract compares that kernel's float
// data over the reals, where -0 = +0, with the reals the other's bits encode (14:57233).
std::vector<ElementDiff> compare_outputs(const SideRun& ref, const SideRun& opt,
                                         const std::vector<bool>& by_value,
                                         const std::vector<bool>& signless_zero = {});

// One element of a run's output as text: a float as a number (%.9g / %.17g), an integer as a
// number, and its bits in hex.
std::string element_text(const emulate::ArrayContents& a, uint64_t i);

} // namespace volta::pair_fuzz
