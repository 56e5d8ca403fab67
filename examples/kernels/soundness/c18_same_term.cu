// c18_same_term (18-int-as-float): expected EQUIVALENT: both kernels compute the same IEEE operations on __uint_as_float(b): equal for every bit pattern.
// A correct tool must decide it: EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x u32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c18_same_term_ref(const float* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __uint_as_float(b[i]) * 2.0f + a[i];
}
extern "C" __global__ void c18_same_term_opt(const float* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  float f = __uint_as_float(b[i]); out[i] = f * 2.0f + a[i];
}
