// c2_u16_wrap (2-integer-wrap): expected NOT_EQUIVALENT: a=65535, b=1: the u16 sum wraps to 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_u16_wrap_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = (unsigned short)(a[i] + b[i]);
}
extern "C" __global__ void c2_u16_wrap_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] + b[i];
}
