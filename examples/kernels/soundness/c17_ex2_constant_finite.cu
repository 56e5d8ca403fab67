// c17_ex2_constant_finite (17-extended-reals): expected EQUIVALENT: ex2.approx.f32 of the constant 3 is finite (8), so t - t is 0 and the optimized kernel stores a, as the reference does.
// A correct tool must decide it: EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_ex2_constant_finite_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c17_ex2_constant_finite_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float r; asm("{.reg .f32 t; ex2.approx.f32 t, 0f40400000; sub.rn.f32 %0, t, t;}" : "=f"(r)); out[i] = r + a[i];
}
