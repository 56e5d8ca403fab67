// c2_signed_vs_unsigned_lt (2-integer-wrap): expected NOT_EQUIVALENT: a=-1, b=0: -1 < 0 but 0xffffffff > 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_signed_vs_unsigned_lt_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] < b[i];
}
extern "C" __global__ void c2_signed_vs_unsigned_lt_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (unsigned)a[i] < (unsigned)b[i];
}
