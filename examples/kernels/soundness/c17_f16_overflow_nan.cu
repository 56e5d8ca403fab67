// c17_f16_overflow_nan (17-extended-reals): expected NOT_EQUIVALENT: (float)__uint2half_rn(b) is +inf from b=65520 on, and inf - inf is NaN: f - f == 0 is false at b=70000.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x u32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c17_f16_overflow_nan_ref(const float* a, const unsigned* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = 1;
}
extern "C" __global__ void c17_f16_overflow_nan_opt(const float* a, const unsigned* b, int* out) {
  unsigned i = threadIdx.x;
  float f = __half2float(__uint2half_rn(b[i])); out[i] = (f - f == 0.f) ? 1 : 0;
}
