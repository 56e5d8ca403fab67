// c1_u32_copy_of_floats (1-untyped-data): expected EQUIVALENT: copying a float array through u32 loads/stores moves the same bytes.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c1_u32_copy_of_floats_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c1_u32_copy_of_floats_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  ((unsigned*)out)[i] = ((const unsigned*)a)[i];
}
