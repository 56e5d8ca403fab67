// c3_cvt_rn_vs_rz (3-opaque-ops): expected NOT_EQUIVALENT: a=0.75: cvt.rni.s32 gives 1, cvt.rzi.s32 gives 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_cvt_rn_vs_rz_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float2int_rn(a[i]);
}
extern "C" __global__ void c3_cvt_rn_vs_rz_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float2int_rz(a[i]);
}
