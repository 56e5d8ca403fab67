// c2_udiv4_vs_shr (2-integer-wrap): expected EQUIVALENT: unsigned a/4 = a>>2.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_udiv4_vs_shr_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("div.u32 %0, %1, 4;" : "=r"(r) : "r"(a[i])); out[i] = r;
}
extern "C" __global__ void c2_udiv4_vs_shr_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("shr.u32 %0, %1, 2;" : "=r"(r) : "r"(a[i])); out[i] = r;
}
