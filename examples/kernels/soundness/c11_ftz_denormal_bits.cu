// c11_ftz_denormal_bits (11-float-bits): expected NOT_EQUIVALENT: mul.ftz flushes the denormal 2^-148 to 0: the bits are 0, not 2 (concrete).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c11_ftz_denormal_bits_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float y; asm volatile("mul.ftz.f32 %0, %1, 0f40000000;" : "=f"(y) : "f"(__int_as_float(1 + (int)(i & 0)))); out[i] = __float_as_int(y);
}
extern "C" __global__ void c11_ftz_denormal_bits_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = 2;
}
