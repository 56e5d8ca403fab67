// c3_f2i_rd_vs_ru (3-opaque-ops): expected NOT_EQUIVALENT: a=0.5: cvt.rmi gives 0, cvt.rpi gives 1.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_f2i_rd_vs_ru_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float2int_rd(a[i]);
}
extern "C" __global__ void c3_f2i_rd_vs_ru_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float2int_ru(a[i]);
}
