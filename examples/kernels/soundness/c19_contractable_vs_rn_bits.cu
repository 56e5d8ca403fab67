// c19_contractable_vs_rn_bits (19-float-bits-modifiers): expected NOT_EQUIVALENT: mul.f32 + add.f32 may be fused into one fma by ptxas, mul.rn + add.rn may not: their bits can differ.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c19_contractable_vs_rn_bits_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float r; asm("{.reg .f32 t; mul.f32 t, %1, %2; add.f32 %0, t, %1;}" : "=f"(r) : "f"(a[i]), "f"(b[i])); out[i] = __float_as_int(r);
}
extern "C" __global__ void c19_contractable_vs_rn_bits_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float r; asm("{.reg .f32 t; mul.rn.f32 t, %1, %2; add.rn.f32 %0, t, %1;}" : "=f"(r) : "f"(a[i]), "f"(b[i])); out[i] = __float_as_int(r);
}
