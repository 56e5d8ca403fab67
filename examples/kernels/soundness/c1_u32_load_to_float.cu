// c1_u32_load_to_float (1-untyped-data): expected NOT_EQUIVALENT: ld.u32 of a float element reads its bits: (float)bits(1.0) = 1065353216.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c1_u32_load_to_float_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c1_u32_load_to_float_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = (float)((const unsigned*)a)[i];
}
