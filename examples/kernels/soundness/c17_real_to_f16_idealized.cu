// c17_real_to_f16_idealized (17-extended-reals): expected EQUIVALENT: a[i] is real data: its f16 narrowing is idealized over the reals (its overflow is a rounding, docs/semantics.md), so h - h is 0 and both kernels store a.
// A correct tool must decide it: EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c17_real_to_f16_idealized_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c17_real_to_f16_idealized_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  __half h = __float2half_rn(a[i]); out[i] = a[i] + __half2float(__hsub(h, h));
}
