// c2_sub_lt_vs_positive (2-integer-wrap): expected NOT_EQUIVALENT: unsigned a-b < a iff b > 0 only without wrap: a=0, b=1.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_sub_lt_vs_positive_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] - b[i] < a[i] ? 1u : 0u;
}
extern "C" __global__ void c2_sub_lt_vs_positive_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = b[i] > 0u ? 1u : 0u;
}
