// c3_brev_vs_id (3-opaque-ops): expected NOT_EQUIVALENT: a=1: brev gives 0x80000000.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_brev_vs_id_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = __brev(a[i]);
}
extern "C" __global__ void c3_brev_vs_id_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
