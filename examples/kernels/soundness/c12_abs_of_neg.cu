// c12_abs_of_neg (12-select-sign): expected EQUIVALENT: fabsf(-a) = fabsf(a).
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c12_abs_of_neg_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fabsf(a[i]);
}
extern "C" __global__ void c12_abs_of_neg_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float t, r; asm volatile("neg.f32 %0, %1;" : "=f"(t) : "f"(a[i])); asm volatile("abs.f32 %0, %1;" : "=f"(r) : "f"(t)); out[i] = r;
}
