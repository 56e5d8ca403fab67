// c1_abs_via_sign_bit (1-untyped-data): expected EQUIVALENT: clearing bit 31 of a float is fabsf (an incomplete tool may answer UNSUPPORTED).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never NOT_EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c1_abs_via_sign_bit_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fabsf(a[i]);
}
extern "C" __global__ void c1_abs_via_sign_bit_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  unsigned t; asm volatile("and.b32 %0, %1, 0x7fffffff;" : "=r"(t) : "r"(__float_as_int(a[i]))); out[i] = __int_as_float(t);
}
