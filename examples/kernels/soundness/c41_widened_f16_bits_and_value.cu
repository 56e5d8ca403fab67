// c41_widened_f16_bits_and_value (41-views): expected NOT_EQUIVALENT: out is u32; both kernels store the widened f16 a[i] converted to an integer plus 1, the reference adds the f32 bits of a[i] to it (a = -6 gives 0xC0C00000 - 5 against -5). The bits of a widened element are FloatBits(a[i], f32), printed a[i]:b32: the bits of the element's value in f32, not its bytes. A counterexample that wrote their low two bytes into the f16 element (0 for -6) after its value ran as equal on the emulator (the pair fuzzer's 12:21904).
// Launch: 1 CTA of 32 threads; a: 32 x f16 input; out: 32 x u32. Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c41_widened_f16_bits_and_value_ref(const __half* a, unsigned* out) {
  unsigned i = threadIdx.x;
  float f = __half2float(a[i]);
  out[i] = __float_as_uint(f) + (unsigned)(int)f + 1u;
}
extern "C" __global__ void c41_widened_f16_bits_and_value_opt(const __half* a, unsigned* out) {
  unsigned i = threadIdx.x;
  float f = __half2float(a[i]);
  out[i] = (unsigned)(int)f + 1u;
}
