// c2_add_cc_u64 (2-integer-wrap): expected EQUIVALENT: a 64-bit add from add.cc.u32 / addc.u32 halves is the 64-bit add.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u64 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_add_cc_u64_ref(const unsigned* a, const unsigned* b, unsigned long long* out) {
  unsigned i = threadIdx.x;
  unsigned lo, hi; asm volatile("add.cc.u32 %0, %2, %3;\n\taddc.u32 %1, %4, %5;" : "=r"(lo), "=r"(hi) : "r"(a[i]), "r"(b[i]), "r"(a[i ^ 1]), "r"(b[i ^ 1]));
  out[i] = ((unsigned long long)hi << 32) | lo;
}
extern "C" __global__ void c2_add_cc_u64_opt(const unsigned* a, const unsigned* b, unsigned long long* out) {
  unsigned i = threadIdx.x;
  out[i] = (((unsigned long long)a[i ^ 1] << 32) | a[i]) + (((unsigned long long)b[i ^ 1] << 32) | b[i]);
}
