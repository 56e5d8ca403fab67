// c19_mul_vs_mul_ftz_bits (19-float-bits-modifiers): expected NOT_EQUIVALENT: mul.ftz flushes a subnormal product to 0: a=2^-70, b=2^-70 gives bits 0 against 2^-140's.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c19_mul_vs_mul_ftz_bits_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float r; asm("mul.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a[i]), "f"(b[i])); out[i] = __float_as_int(r);
}
extern "C" __global__ void c19_mul_vs_mul_ftz_bits_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float r; asm("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a[i]), "f"(b[i])); out[i] = __float_as_int(r);
}
