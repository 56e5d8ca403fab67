// c17_constant_chain_overflow (17-extended-reals): expected NOT_EQUIVALENT: ex2(100) is finite, but ex2(100) * ex2(100) is 2^200, +inf in f32: (t - t) is NaN on the device.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_constant_chain_overflow_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c17_constant_chain_overflow_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float r; asm("{.reg .f32 t, u; ex2.approx.f32 t, 0f42C80000; mul.rn.f32 u, t, t; sub.rn.f32 %0, u, u;}" : "=f"(r)); out[i] = r + a[i];
}
