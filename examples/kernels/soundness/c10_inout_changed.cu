// c10_inout_changed (10-initial-contents): expected NOT_EQUIVALENT: the optimized kernel adds 1 to out[i].
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (inout). Part of examples/soundness/manifest.json.
extern "C" __global__ void c10_inout_changed_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  (void)a; (void)i;
}
extern "C" __global__ void c10_inout_changed_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = out[i] + 1.0f;
}
