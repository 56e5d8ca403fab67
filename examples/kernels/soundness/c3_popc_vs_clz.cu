// c3_popc_vs_clz (3-opaque-ops): expected NOT_EQUIVALENT: a=1: popc 1, clz 31.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_popc_vs_clz_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = __popc(a[i]);
}
extern "C" __global__ void c3_popc_vs_clz_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = __clz(a[i]);
}
