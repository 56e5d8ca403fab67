// c3_lg2_vs_ex2 (3-opaque-ops): expected NOT_EQUIVALENT: lg2.approx(1) = 0, ex2.approx(1) = 2.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_lg2_vs_ex2_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __log2f(fabsf(a[i]) + 1.0f);
}
extern "C" __global__ void c3_lg2_vs_ex2_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = exp2f(fabsf(a[i]) + 1.0f);
}
