// c3_prmt_identity (3-opaque-ops): expected EQUIVALENT: prmt.b32 a, b, 0x3210 selects the bytes of a in place.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_prmt_identity_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c3_prmt_identity_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("prmt.b32 %0, %1, %2, 0x3210;" : "=r"(r) : "r"(a[i]), "r"(b[i])); out[i] = r;
}
