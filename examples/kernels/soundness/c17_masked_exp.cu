// c17_masked_exp (17-extended-reals): expected EQUIVALENT: masked scores are -INFINITY and expf(-inf - m) is 0: the masked softmax numerator equals the explicit one.
// A correct tool must decide it: EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_masked_exp_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float s = (i % 2) ? -INFINITY : a[i]; out[i] = __expf(s - b[0]);
}
extern "C" __global__ void c17_masked_exp_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = (i % 2) ? 0.f : __expf(a[i] - b[0]);
}
