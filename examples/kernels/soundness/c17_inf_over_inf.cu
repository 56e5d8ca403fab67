// c17_inf_over_inf (17-extended-reals): expected NOT_EQUIVALENT: m / m with m = INFINITY for a <= 0 is inf / inf = NaN, not 1.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_inf_over_inf_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 1.f;
}
extern "C" __global__ void c17_inf_over_inf_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float m = a[i] > 0.f ? a[i] : INFINITY; out[i] = m / m;
}
