// Inputs for the oracle's emulator runs, in three classes:
//   exact    - small dyadic floats (k/4) and small or boundary integers, plus integer elements
//              holding the bits of small floats: float arithmetic on them is mostly exact, so the
//              real-number contract and IEEE arithmetic agree and differences are bugs;
//   moderate - random floats in [-4, 4] at full precision and random integers of every width:
//              rounding differs between reassociated kernels, bits do not lie;
//   special  - adds signed zeros, subnormals, tiny and huge values, infinities and NaN, as
//              floats and as integer bit patterns.
// Reusable by any differential check: it depends only on the launch configuration's arrays.
#pragma once

#include <string_view>

#include "engine/emulate/emulator.hpp"
#include "engine/launch/launch_config.hpp"
#include "fuzz_random.hpp"

namespace volta::pair_fuzz {

enum class InputClass : uint8_t { Exact, Moderate, Special };
std::string_view to_string(InputClass c);

// Values for every `in` array of `config`, typed by its declared element type.
emulate::Inputs make_inputs(const launch::KernelConfig& config, InputClass c, Rng& rng);

} // namespace volta::pair_fuzz
