// c10_inout_swapped (10-initial-contents): expected NOT_EQUIVALENT: the optimized kernel swaps neighbouring elements.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (inout). Part of examples/soundness/manifest.json.
extern "C" __global__ void c10_inout_swapped_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  (void)a; (void)i;
}
extern "C" __global__ void c10_inout_swapped_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float v = out[i ^ 1]; __syncthreads(); out[i] = v;
}
