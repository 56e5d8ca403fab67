// c2_reassoc_int (2-integer-wrap): expected EQUIVALENT: integer + and * are a ring modulo 2^32.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_reassoc_int_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned t, r; asm volatile("add.u32 %0, %1, %2;" : "=r"(t) : "r"(a[i]), "r"(b[i])); asm volatile("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a[i]), "r"(b[i]), "r"(t)); out[i] = r;
}
extern "C" __global__ void c2_reassoc_int_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned t, r; asm volatile("mul.lo.u32 %0, %1, %2;" : "=r"(t) : "r"(a[i]), "r"(b[i])); asm volatile("add.u32 %0, %1, %2;" : "=r"(t) : "r"(t), "r"(b[i])); asm volatile("add.u32 %0, %1, %2;" : "=r"(r) : "r"(a[i]), "r"(t)); out[i] = r;
}
