// c17_ex2_f16_constant_overflow (17-extended-reals): expected NOT_EQUIVALENT: ex2.approx.f16 of the constant 20 is +inf in f16 (2^20 is above 65504), so t - t is NaN on the device, where the reference stores a.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_ex2_f16_constant_overflow_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c17_ex2_f16_constant_overflow_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float r; asm("{.reg .b16 h; mov.b16 h, 0x4D00; ex2.approx.f16 h, h; sub.rn.f16 h, h, h; cvt.f32.f16 %0, h;}" : "=f"(r)); out[i] = r + a[i];
}
