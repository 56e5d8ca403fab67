// c11_ftz_denormal_branch (11-float-bits): expected NOT_EQUIVALENT: mul.ftz flushes 2^-149 * 2 to 0 on the device, so y == 0 holds and the reference stores 1.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x float (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c11_ftz_denormal_branch_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float y; asm volatile("mul.ftz.f32 %0, %1, 0f40000000;" : "=f"(y) : "f"(__int_as_float(1 + (int)(i & 0))));
  out[i] = y == 0.0f ? 1.0f : a[i];
}
extern "C" __global__ void c11_ftz_denormal_branch_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
