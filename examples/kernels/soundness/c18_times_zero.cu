// c18_times_zero (18-int-as-float): expected NOT_EQUIVALENT: fmaxf(f, 0) is 0 for a NaN f but fmaxf(f, 0) + 0 * f is NaN.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x u32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c18_times_zero_ref(const float* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fmaxf(__uint_as_float(b[i]), 0.f);
}
extern "C" __global__ void c18_times_zero_opt(const float* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  float f = __uint_as_float(b[i]); out[i] = fmaxf(f, 0.f) + 0.f * f;
}
