// c11_float_bits_commute (11-float-bits): expected EQUIVALENT: IEEE addition is commutative, so the bits of a+b and b+a agree (an incomplete tool may say UNSUPPORTED).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never NOT_EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c11_float_bits_commute_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float r; asm volatile("add.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a[i]), "f"(b[i])); out[i] = __float_as_int(r);
}
extern "C" __global__ void c11_float_bits_commute_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float r; asm volatile("add.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(b[i]), "f"(a[i])); out[i] = __float_as_int(r);
}
