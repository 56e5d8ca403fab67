// c17_const_overflow_product (17-extended-reals): expected NOT_EQUIVALENT: 1e30f * 1e30f is +inf in f32, so (a + p) - p is inf - inf = NaN, not a.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_const_overflow_product_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c17_const_overflow_product_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float big, p; asm("mov.f32 %0, 0f7149F2CA;" : "=f"(big)); asm("mul.rn.f32 %0, %1, %1;" : "=f"(p) : "f"(big)); out[i] = (a[i] + p) - p;
}
