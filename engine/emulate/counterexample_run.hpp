// Every counterexample is executed (docs/semantics.md): the two kernels of an entry run on the
// bit-exact emulator at the counterexample's inputs (every other input 0), and the report shows
// what each stores at the differing element in IEEE arithmetic, beside the values over the reals.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/counterexample.hpp"
#include "engine/emulate/emulator.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::emulate {

// The inputs of one kernel at a counterexample: the listed elements and symbols set ("A[3]" a
// value, "A[3]:b32" the element's bits as an integer, "alpha" a symbolic parameter), every other
// input 0. Returns why not, when a value is not a number or names no element of the kernel.
std::optional<std::string>
counterexample_inputs(const launch::KernelConfig& config,
                      const std::vector<std::pair<std::string, std::string>>& values, Inputs& in);

// Fills c.reference_device / c.optimized_device, or c.device_note when the input cannot be
// given to the emulator or a kernel cannot be run there. Where the two are equal (the kernels
// differ over the reals by less than rounding at that input), tries a few nearby inputs within a
// small time budget (and within `limits`) and sets c.device_witness at the first where the
// stores differ.
void execute_counterexample(const launch::ManifestEntry& entry, Counterexample& c,
                            const WitnessSearchLimits& limits = {});

} // namespace volta::emulate
