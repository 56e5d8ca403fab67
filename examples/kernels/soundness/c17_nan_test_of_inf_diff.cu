// c17_nan_test_of_inf_diff (17-extended-reals): expected NOT_EQUIVALENT: x = m - m with m = INFINITY for a <= 0 is NaN there, so x != x is true.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_nan_test_of_inf_diff_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = 0;
}
extern "C" __global__ void c17_nan_test_of_inf_diff_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float m = a[i] > 0.f ? a[i] : INFINITY; float x = m - m; out[i] = (x != x) ? 1 : 0;
}
