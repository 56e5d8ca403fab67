// c11_rni_half_even (11-float-bits): expected NOT_EQUIVALENT: cvt.rni rounds half to even: (i+0.5) gives i for even i, not i+1 (concrete).
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c11_rni_half_even_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  int r; asm volatile("cvt.rni.s32.f32 %0, %1;" : "=r"(r) : "f"((float)i + 0.5f)); out[i] = r;
}
extern "C" __global__ void c11_rni_half_even_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)i + 1;
}
