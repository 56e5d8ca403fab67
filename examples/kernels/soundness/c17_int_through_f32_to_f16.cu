// c17_int_through_f32_to_f16 (17-extended-reals): expected NOT_EQUIVALENT: b[i] is integer data: (float)b[i] narrowed to f16 is +inf from 65520 on (b = 70000), so h - h is NaN on the device, where the reference stores a.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x u32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c17_int_through_f32_to_f16_ref(const float* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c17_int_through_f32_to_f16_opt(const float* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  float f = (float)b[i]; __half h = __float2half_rn(f); out[i] = a[i] + __half2float(__hsub(h, h));
}
