// c12_select_is_max (12-select-sign): expected EQUIVALENT. `x < y ? y : x` (setp + selp) is
// fmaxf(x, y) over the reals: they agree where x == y (-0 and +0 are one real), and the proof by
// cases reads such a select as the max of its operands.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c12_select_is_max_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  const float x = a[i], y = b[i];
  out[i] = x < y ? y : x;
}
extern "C" __global__ void c12_select_is_max_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fmaxf(a[i], b[i]);
}
