// c17_ex2_constant_overflow (17-extended-reals): expected NOT_EQUIVALENT: ex2.approx.f32 of the constant 200 is +inf in f32 (2^200 overflows), so t - t is NaN, not 0: the optimized kernel stores NaN where the reference stores a.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_ex2_constant_overflow_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c17_ex2_constant_overflow_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float r; asm("{.reg .f32 t; ex2.approx.f32 t, 0f43480000; sub.rn.f32 %0, t, t;}" : "=f"(r)); out[i] = r + a[i];
}
