// c9_f32_big_vs_f32_one (9-proof-cache): expected NOT_EQUIVALENT: st.f32 1065353216.0 vs st.f32 1.0: a cache keyed on untyped constants confuses it with c9_u32_bits_vs_f32_one.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c9_f32_big_vs_f32_one_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 1065353216.0f;
}
extern "C" __global__ void c9_f32_big_vs_f32_one_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 1.0f;
}
