// c2_shr_s32_by_40 (2-integer-wrap): expected NOT_EQUIVALENT: shr.s32 by 40 fills with the sign (-1 for a<0), shr by 40&31=8 does not.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_shr_s32_by_40_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  int r; asm volatile("shr.s32 %0, %1, 40;" : "=r"(r) : "r"(a[i])); out[i] = r;
}
extern "C" __global__ void c2_shr_s32_by_40_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] >> 8;
}
