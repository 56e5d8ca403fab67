// c3_div_vs_rem (3-opaque-ops): expected NOT_EQUIVALENT: a=5, b=2 (divisor 3): 1 vs 2.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_div_vs_rem_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] / (b[i] | 1u);
}
extern "C" __global__ void c3_div_vs_rem_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] % (b[i] | 1u);
}
