// c2_not_plus_one (2-integer-wrap): expected EQUIVALENT: ~a + 1 = -a in two's complement.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_not_plus_one_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned t, r; asm volatile("not.b32 %0, %1;" : "=r"(t) : "r"(a[i])); asm volatile("add.u32 %0, %1, 1;" : "=r"(r) : "r"(t)); out[i] = r;
}
extern "C" __global__ void c2_not_plus_one_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("neg.s32 %0, %1;" : "=r"(r) : "r"(a[i])); out[i] = r;
}
