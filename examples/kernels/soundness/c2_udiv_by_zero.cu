// c2_udiv_by_zero (2-integer-wrap): expected NOT_EQUIVALENT: b=0: the reference stores 0, div.u32 by zero is unspecified (0xffffffff on sm_80).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_udiv_by_zero_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = b[i] != 0u ? a[i] / b[i] : 0u;
}
extern "C" __global__ void c2_udiv_by_zero_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] / b[i];
}
