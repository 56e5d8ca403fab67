// c11_f2i_saturates (11-float-bits): expected NOT_EQUIVALENT: cvt.rzi.s32.f32 of 3e9 saturates to INT_MAX; wrapping would give -1294967296 (concrete).
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c11_f2i_saturates_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  int r; asm volatile("cvt.rzi.s32.f32 %0, %1;" : "=r"(r) : "f"(3.0e9f + (float)(i & 0))); out[i] = r;
}
extern "C" __global__ void c11_f2i_saturates_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)3000000000u;
}
