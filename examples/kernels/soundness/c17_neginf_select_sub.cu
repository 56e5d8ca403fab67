// c17_neginf_select_sub (17-extended-reals): expected NOT_EQUIVALENT: m = a > 0 ? a : -INFINITY; m - m is NaN for a <= 0, not 0.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_neginf_select_sub_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 0.f;
}
extern "C" __global__ void c17_neginf_select_sub_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float m = a[i] > 0.f ? a[i] : -INFINITY; out[i] = m - m;
}
