// c3_f2i_signedness (3-opaque-ops): expected NOT_EQUIVALENT: a=-1: cvt.rzi.s32 gives -1, cvt.rzi.u32 saturates to 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_f2i_signedness_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)a[i];
}
extern "C" __global__ void c3_f2i_signedness_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)(unsigned)a[i];
}
