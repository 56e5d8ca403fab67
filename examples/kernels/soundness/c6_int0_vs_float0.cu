// c6_int0_vs_float0 (6-output-types): expected EQUIVALENT: 0 and 0.0f have the same bytes.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c6_int0_vs_float0_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  ((int*)out)[i] = 0;
}
extern "C" __global__ void c6_int0_vs_float0_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 0.0f;
}
