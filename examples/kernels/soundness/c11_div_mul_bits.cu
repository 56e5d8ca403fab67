// c11_div_mul_bits (11-float-bits): expected NOT_EQUIVALENT: the bits of (a/b)*b are not always those of a: a=1, b=41 gives 0.99999994.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c11_div_mul_bits_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float q, r; asm volatile("div.rn.f32 %0, %1, %2;" : "=f"(q) : "f"(a[i]), "f"(b[i])); asm volatile("mul.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(q), "f"(b[i])); out[i] = __float_as_int(r);
}
extern "C" __global__ void c11_div_mul_bits_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(a[i]);
}
