// c0_float_reassoc (controls): expected EQUIVALENT: (a+b)+c = a+(b+c) over the reals (float rounding is idealized).
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c0_float_reassoc_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = (a[i] + b[i]) + a[i ^ 1];
}
extern "C" __global__ void c0_float_reassoc_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] + (b[i] + a[i ^ 1]);
}
