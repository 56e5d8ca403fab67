// c18_float_array_nan_test (18-int-as-float): expected EQUIVALENT: b is declared f32: float inputs are real numbers (docs/semantics.md), so f != f is false.
// A correct tool must decide it: EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c18_float_array_nan_test_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = 0;
}
extern "C" __global__ void c18_float_array_nan_test_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float f = b[i]; out[i] = (f != f) ? 1 : 0;
}
