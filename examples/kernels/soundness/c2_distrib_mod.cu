// c2_distrib_mod (2-integer-wrap): expected EQUIVALENT: a*(b+1) = a*b + a modulo 2^32.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_distrib_mod_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned t, r; asm volatile("add.u32 %0, %1, 1;" : "=r"(t) : "r"(b[i])); asm volatile("mul.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(a[i]), "r"(t)); out[i] = r;
}
extern "C" __global__ void c2_distrib_mod_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("mad.lo.u32 %0, %1, %2, %1;" : "=r"(r) : "r"(a[i]), "r"(b[i])); out[i] = r;
}
