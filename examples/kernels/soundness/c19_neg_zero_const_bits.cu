// c19_neg_zero_const_bits (19-float-bits-modifiers): expected NOT_EQUIVALENT: the constant -0.0f stores 0x80000000 as bits, +0.0f stores 0.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c19_neg_zero_const_bits_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float z; asm("mov.f32 %0, 0f80000000;" : "=f"(z)); out[i] = __float_as_int(z);
}
extern "C" __global__ void c19_neg_zero_const_bits_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float z; asm("mov.f32 %0, 0f00000000;" : "=f"(z)); out[i] = __float_as_int(z);
}
