// c17_constant_underflow_lg2 (17-extended-reals): expected NOT_EQUIVALENT: 2^-100 * 2^-100 underflows to 0 in f32, so lg2 of it is -inf and (t - t) is NaN on the device, where over the reals lg2 is -200 and t - t is 0.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_constant_underflow_lg2_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c17_constant_underflow_lg2_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float r; asm("{.reg .f32 t, u; mul.rn.f32 t, 0f0D800000, 0f0D800000; lg2.approx.f32 u, t; sub.rn.f32 %0, u, u;}" : "=f"(r)); out[i] = r + a[i];
}
