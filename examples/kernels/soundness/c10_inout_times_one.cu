// c10_inout_times_one (10-initial-contents): expected EQUIVALENT: the reference stores out[i]*1.0f, equal to the value held over the reals.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (inout). Part of examples/soundness/manifest.json.
extern "C" __global__ void c10_inout_times_one_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = out[i] * 1.0f + 0.0f * a[i];
}
extern "C" __global__ void c10_inout_times_one_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  (void)a; (void)i;
}
