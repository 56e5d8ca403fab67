// c9_f32_copy_vs_u32_convert (9-proof-cache): expected NOT_EQUIVALENT: (float) of a[i]'s bits is not a[i]; same template shape as the entry before.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c9_f32_copy_vs_u32_convert_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c9_f32_copy_vs_u32_convert_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = (float)((const unsigned*)a)[i];
}
