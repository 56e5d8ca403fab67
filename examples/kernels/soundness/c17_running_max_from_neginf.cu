// c17_running_max_from_neginf (17-extended-reals): expected EQUIVALENT: a running max that starts at -INFINITY is the max of its values: max(-inf, x) = x.
// A correct tool must decide it: EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_running_max_from_neginf_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float m = -INFINITY; for (int k = 0; k < 4; ++k) m = fmaxf(m, a[(i + k) % 32]); out[i] = m;
}
extern "C" __global__ void c17_running_max_from_neginf_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float m = a[i]; for (int k = 1; k < 4; ++k) m = fmaxf(m, a[(i + k) % 32]); out[i] = m;
}
