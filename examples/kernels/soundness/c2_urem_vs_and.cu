// c2_urem_vs_and (2-integer-wrap): expected EQUIVALENT: unsigned a%2 = a&1.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_urem_vs_and_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("rem.u32 %0, %1, 2;" : "=r"(r) : "r"(a[i])); out[i] = r;
}
extern "C" __global__ void c2_urem_vs_and_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("and.b32 %0, %1, 1;" : "=r"(r) : "r"(a[i])); out[i] = r;
}
