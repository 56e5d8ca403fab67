// c2_wrap_max (2-integer-wrap): expected NOT_EQUIVALENT: a=0xffffffff: a+1u wraps to 0, max(0, a) = a.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_wrap_max_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = max(a[i] + 1u, a[i]);
}
extern "C" __global__ void c2_wrap_max_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] + 1u;
}
