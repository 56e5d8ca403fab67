// c3_floor_eq_ceil (3-opaque-ops): expected NOT_EQUIVALENT: floorf(a)==ceilf(a) is false at a=0.5.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_floor_eq_ceil_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = floorf(a[i]) == ceilf(a[i]) ? 1.0f : 0.0f;
}
extern "C" __global__ void c3_floor_eq_ceil_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 1.0f;
}
