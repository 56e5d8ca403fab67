// c2_add_cc_carry_dropped (2-integer-wrap): expected NOT_EQUIVALENT: the high half is added without the carry: a=0xffffffff, b=1.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u64 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_add_cc_carry_dropped_ref(const unsigned* a, const unsigned* b, unsigned long long* out) {
  unsigned i = threadIdx.x;
  unsigned lo, hi; asm volatile("add.u32 %0, %2, %3;\n\tadd.u32 %1, %4, %5;" : "=r"(lo), "=r"(hi) : "r"(a[i]), "r"(b[i]), "r"(a[i ^ 1]), "r"(b[i ^ 1]));
  out[i] = ((unsigned long long)hi << 32) | lo;
}
extern "C" __global__ void c2_add_cc_carry_dropped_opt(const unsigned* a, const unsigned* b, unsigned long long* out) {
  unsigned i = threadIdx.x;
  out[i] = (((unsigned long long)a[i ^ 1] << 32) | a[i]) + (((unsigned long long)b[i ^ 1] << 32) | b[i]);
}
