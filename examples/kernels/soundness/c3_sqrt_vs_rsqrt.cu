// c3_sqrt_vs_rsqrt (3-opaque-ops): expected NOT_EQUIVALENT: sqrt(4) = 2, rsqrt(4) = 0.5.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_sqrt_vs_rsqrt_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = sqrtf(fabsf(a[i]) + 1.0f);
}
extern "C" __global__ void c3_sqrt_vs_rsqrt_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = rsqrtf(fabsf(a[i]) + 1.0f);
}
