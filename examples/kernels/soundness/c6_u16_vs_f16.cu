// c6_u16_vs_f16 (6-output-types): expected NOT_EQUIVALENT: st.u16 1 writes 0x0001, st.b16 of half 1.0 writes 0x3c00.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f16 (out). Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c6_u16_vs_f16_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  ((unsigned short*)out)[i] = 1;
}
extern "C" __global__ void c6_u16_vs_f16_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  ((__half*)out)[i] = __float2half(1.0f);
}
