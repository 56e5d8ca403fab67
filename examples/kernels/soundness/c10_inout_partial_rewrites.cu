// c10_inout_partial_rewrites (10-initial-contents): expected EQUIVALENT: each kernel rewrites a different half of out with the values it already holds.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (inout). Part of examples/soundness/manifest.json.
extern "C" __global__ void c10_inout_partial_rewrites_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  if (i % 2 == 0) out[i] = out[i];
}
extern "C" __global__ void c10_inout_partial_rewrites_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  if (i % 2 == 1) out[i] = out[i];
}
