// c3_sin_vs_cos (3-opaque-ops): expected NOT_EQUIVALENT: sin.approx and cos.approx differ at 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_sin_vs_cos_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __sinf(a[i]);
}
extern "C" __global__ void c3_sin_vs_cos_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __cosf(a[i]);
}
