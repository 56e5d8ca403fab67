// Every counterexample is executed (docs/semantics.md): the two kernels of an entry run on the
// bit-exact emulator at the counterexample's inputs (every other input 0), and the report shows
// what each stores at the differing element in IEEE arithmetic, beside the values over the reals.
#pragma once

#include "engine/driver/entry_result.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::emulate {

// Fills c.reference_device / c.optimized_device, or c.device_note when the input cannot be
// given to the emulator or a kernel cannot be run there.
void execute_counterexample(const launch::ManifestEntry& entry, driver::Counterexample& c);

} // namespace volta::emulate
