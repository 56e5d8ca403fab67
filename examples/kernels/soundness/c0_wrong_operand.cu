// c0_wrong_operand (controls): expected NOT_EQUIVALENT: a*b vs a*a differ at a=1, b=2.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c0_wrong_operand_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] * b[i];
}
extern "C" __global__ void c0_wrong_operand_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] * a[i];
}
