// c6_bits_vs_float_const (6-output-types): expected EQUIVALENT: st.u32 0x3f800000 and st.f32 1.0 write the same bytes.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c6_bits_vs_float_const_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  ((unsigned*)out)[i] = 0x3f800000u;
}
extern "C" __global__ void c6_bits_vs_float_const_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 1.0f;
}
