// c2_min_signedness (2-integer-wrap): expected NOT_EQUIVALENT: a=-1, b=0: min.s32 = -1, min.u32 = 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_min_signedness_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = min(a[i], b[i]);
}
extern "C" __global__ void c2_min_signedness_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)min((unsigned)a[i], (unsigned)b[i]);
}
