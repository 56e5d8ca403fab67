// c11_float_bits_reassoc (11-float-bits): expected NOT_EQUIVALENT: the bits of (a+b)+c and a+(b+c) differ in f32 (a=1, b=2^-24, c=2^-24): only the real values agree.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c11_float_bits_reassoc_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float t, r; asm volatile("add.rn.f32 %0, %1, %2;" : "=f"(t) : "f"(a[i]), "f"(b[i])); asm volatile("add.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(t), "f"(a[i ^ 1])); out[i] = __float_as_int(r);
}
extern "C" __global__ void c11_float_bits_reassoc_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float t, r; asm volatile("add.rn.f32 %0, %1, %2;" : "=f"(t) : "f"(b[i]), "f"(a[i ^ 1])); asm volatile("add.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a[i]), "f"(t)); out[i] = __float_as_int(r);
}
