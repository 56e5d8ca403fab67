// c12_copysign_vs_abs (12-select-sign): expected NOT_EQUIVALENT: copysignf(a, b) is negative for b<0: a=1, b=-1.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c12_copysign_vs_abs_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = copysignf(a[i], b[i]);
}
extern "C" __global__ void c12_copysign_vs_abs_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fabsf(a[i]);
}
