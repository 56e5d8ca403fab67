// c3_rint_vs_trunc (3-opaque-ops): expected NOT_EQUIVALENT: a=0.75: rint 1, trunc 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_rint_vs_trunc_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = rintf(a[i]);
}
extern "C" __global__ void c3_rint_vs_trunc_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = truncf(a[i]);
}
