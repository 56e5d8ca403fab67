// c3_popc_complement (3-opaque-ops): expected EQUIVALENT: popc(a) = 32 - popc(~a) (bit-vector identity, decidable).
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_popc_complement_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = __popc(a[i]);
}
extern "C" __global__ void c3_popc_complement_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = 32 - __popc(~a[i]);
}
