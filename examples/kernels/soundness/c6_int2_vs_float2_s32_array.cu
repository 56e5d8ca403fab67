// c6_int2_vs_float2_s32_array (6-output-types): expected NOT_EQUIVALENT: in an s32 array, 2.0f is the integer 0x40000000.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c6_int2_vs_float2_s32_array_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  ((int*)out)[i] = 2;
}
extern "C" __global__ void c6_int2_vs_float2_s32_array_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 2.0f;
}
