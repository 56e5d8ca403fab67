// c6_s8_vs_u8_bytes (6-output-types): expected EQUIVALENT: st.s8 -1 and st.u8 255 write the same byte.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x u8 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c6_s8_vs_u8_bytes_ref(const float* a, const float* b, unsigned char* out) {
  unsigned i = threadIdx.x;
  ((signed char*)out)[i] = (signed char)(-1 - (int)(i & 0));
}
extern "C" __global__ void c6_s8_vs_u8_bytes_opt(const float* a, const float* b, unsigned char* out) {
  unsigned i = threadIdx.x;
  ((unsigned char*)out)[i] = 255;
}
