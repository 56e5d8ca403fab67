// c11_half_roundtrip_bits (11-float-bits): expected NOT_EQUIVALENT: (float)(__half)a loses 13 mantissa bits: bits differ at a=1+2^-20.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c11_half_roundtrip_bits_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(__half2float(__float2half(a[i])));
}
extern "C" __global__ void c11_half_roundtrip_bits_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(a[i]);
}
