// c3_bfe_signedness (3-opaque-ops): expected NOT_EQUIVALENT: a=0x800: bfe.u32(a,4,8) = 128, bfe.s32 = -128.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_bfe_signedness_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("bfe.u32 %0, %1, 4, 8;" : "=r"(r) : "r"(a[i])); out[i] = r;
}
extern "C" __global__ void c3_bfe_signedness_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("bfe.s32 %0, %1, 4, 8;" : "=r"(r) : "r"(a[i])); out[i] = r;
}
