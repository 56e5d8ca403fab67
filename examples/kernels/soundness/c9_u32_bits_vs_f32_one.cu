// c9_u32_bits_vs_f32_one (9-proof-cache): expected EQUIVALENT: st.u32 0x3f800000 vs st.f32 1.0: same bytes (run before c9_u32_one_vs_f32_one with one cache).
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c9_u32_bits_vs_f32_one_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  ((unsigned*)out)[i] = 0x3f800000u;
}
extern "C" __global__ void c9_u32_bits_vs_f32_one_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 1.0f;
}
