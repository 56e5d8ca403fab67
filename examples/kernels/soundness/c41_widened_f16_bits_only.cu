// c41_widened_f16_bits_only (41-views): expected NOT_EQUIVALENT: out is u32; the reference stores the f32 bits of the widened f16 a[i] plus 1, the optimized kernel drops the bits and stores 1 (a = 1/2 gives 0x3F000001 against 1). Only the bits a[i]:b32 are read, never the value: a counterexample must give them a value an f16 widens to, not any 32-bit pattern (5, an f32 subnormal far below f16's, is none: written as the element's low bytes it made another f16, whose widened bits the reference stored in place of the predicted 6).
// Launch: 1 CTA of 32 threads; a: 32 x f16 input; out: 32 x u32. Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c41_widened_f16_bits_only_ref(const __half* a, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_uint(__half2float(a[i])) + 1u;
}
extern "C" __global__ void c41_widened_f16_bits_only_opt(const __half* a, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = 1u;
}
