// c6_int1_vs_float1 (6-output-types): expected NOT_EQUIVALENT: st.u32 1 writes 0x00000001, st.f32 1.0 writes 0x3f800000.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c6_int1_vs_float1_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  ((int*)out)[i] = 1;
}
extern "C" __global__ void c6_int1_vs_float1_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 1.0f;
}
