// c3_prmt_selectors (3-opaque-ops): expected NOT_EQUIVALENT: prmt 0x3210 is a, 0x0123 is a byte-reversed: a=1.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_prmt_selectors_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("prmt.b32 %0, %1, %2, 0x3210;" : "=r"(r) : "r"(a[i]), "r"(b[i])); out[i] = r;
}
extern "C" __global__ void c3_prmt_selectors_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("prmt.b32 %0, %1, %2, 0x0123;" : "=r"(r) : "r"(a[i]), "r"(b[i])); out[i] = r;
}
