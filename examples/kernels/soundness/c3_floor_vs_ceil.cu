// c3_floor_vs_ceil (3-opaque-ops): expected NOT_EQUIVALENT: a=0.5: floor 0, ceil 1.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_floor_vs_ceil_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = floorf(a[i]);
}
extern "C" __global__ void c3_floor_vs_ceil_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = ceilf(a[i]);
}
