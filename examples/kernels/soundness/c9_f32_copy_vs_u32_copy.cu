// c9_f32_copy_vs_u32_copy (9-proof-cache): expected EQUIVALENT: copying a[i] through f32 or u32 registers writes the same bytes.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c9_f32_copy_vs_u32_copy_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c9_f32_copy_vs_u32_copy_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  ((unsigned*)out)[i] = ((const unsigned*)a)[i];
}
