// c19_const_rounding_bits (19-float-bits-modifiers): expected NOT_EQUIVALENT: (1e8f + 1) - 1e8f is 0 in f32 (1e8 + 1 rounds to 1e8): its bits are 0, not those of 1.0f.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c19_const_rounding_bits_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float x, y, r; asm("mov.f32 %0, 0f4CBEBC20;" : "=f"(x)); asm("mov.f32 %0, 0f3F800000;" : "=f"(y)); asm("{.reg .f32 t; add.rn.f32 t, %1, %2; sub.rn.f32 %0, t, %1;}" : "=f"(r) : "f"(x), "f"(y)); out[i] = __float_as_int(r);
}
extern "C" __global__ void c19_const_rounding_bits_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(1.0f);
}
