// c3_same_opaque_terms (3-opaque-ops): expected EQUIVALENT: the same popc and clz terms added in the other order.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_same_opaque_terms_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("{ .reg .b32 p, q; popc.b32 p, %1; clz.b32 q, %2; add.u32 %0, p, q; }" : "=r"(r) : "r"(a[i]), "r"(b[i])); out[i] = r;
}
extern "C" __global__ void c3_same_opaque_terms_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("{ .reg .b32 p, q; clz.b32 q, %2; popc.b32 p, %1; add.u32 %0, q, p; }" : "=r"(r) : "r"(a[i]), "r"(b[i])); out[i] = r;
}
