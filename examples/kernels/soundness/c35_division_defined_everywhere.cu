// c35_division_defined_everywhere (35-vacuous): expected EQUIVALENT. The positive beside the
// vacuous references: the reference divides by a² + 1, which is > 0 on every input, and the
// optimized kernel multiplies by its reciprocal. Equal over the reals, and the reference is
// defined everywhere, so the proof is not vacuous.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float (out).
// Part of examples/soundness/manifest.json.
extern "C" __global__ void c35_division_defined_everywhere_ref(float* out, const float* a) {
  unsigned t = threadIdx.x;
  float x = a[t];
  out[t] = x / (x * x + 1.0f);
}
extern "C" __global__ void c35_division_defined_everywhere_opt(float* out, const float* a) {
  unsigned t = threadIdx.x;
  float x = a[t];
  float r = 1.0f / (x * x + 1.0f);
  out[t] = r * x;
}
