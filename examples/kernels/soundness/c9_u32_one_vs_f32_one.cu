// c9_u32_one_vs_f32_one (9-proof-cache): expected NOT_EQUIVALENT: st.u32 1 vs st.f32 1.0 differ; a cache keyed on the constant's value alone answers EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c9_u32_one_vs_f32_one_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  ((unsigned*)out)[i] = 1u;
}
extern "C" __global__ void c9_u32_one_vs_f32_one_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 1.0f;
}
