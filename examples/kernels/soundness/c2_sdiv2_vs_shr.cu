// c2_sdiv2_vs_shr (2-integer-wrap): expected NOT_EQUIVALENT: a=-1: -1/2 = 0 (truncation), -1>>1 = -1.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_sdiv2_vs_shr_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] / 2;
}
extern "C" __global__ void c2_sdiv2_vs_shr_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] >> 1;
}
