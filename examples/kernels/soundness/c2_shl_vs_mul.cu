// c2_shl_vs_mul (2-integer-wrap): expected EQUIVALENT: a<<3 = a*8 modulo 2^32.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_shl_vs_mul_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("shl.b32 %0, %1, 3;" : "=r"(r) : "r"(a[i])); out[i] = r;
}
extern "C" __global__ void c2_shl_vs_mul_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("mul.lo.u32 %0, %1, 8;" : "=r"(r) : "r"(a[i])); out[i] = r;
}
