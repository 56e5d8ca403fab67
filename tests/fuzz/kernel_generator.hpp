// Random kernels from a grammar of the typed model: integer widths and signedness, f16 / bf16 /
// f32 / f64 and packed halves, rounding modes, .ftz, .sat, special constants, reinterpretations,
// conversions, selects and forward branches on data, shuffles, staging through shared memory
// (st.shared or cp.async, with the wait and the barrier), atomics, and stores to arrays of a
// declared type (a float stored in an integer array is observed as bits). Every kernel is one
// CTA of 32 or 64 threads, each storing one element of every output array; every value is
// computed in registers, every address from the thread index (the structured-CTA class).
#pragma once

#include "fuzz_ir.hpp"
#include "fuzz_random.hpp"

namespace volta::pair_fuzz {

struct GenOptions {
  int min_ops = 3;
  int max_ops = 16;
};

Kernel generate_kernel(Rng& rng, const GenOptions& options = {});

// Helpers the mutator shares: a constant of a type (small, boundary, special values), and the
// bits of a double in a 16-bit float format.
uint64_t random_const_bits(Rng& rng, Ty t);
uint16_t half_bits(double v, bool bf16);

} // namespace volta::pair_fuzz
