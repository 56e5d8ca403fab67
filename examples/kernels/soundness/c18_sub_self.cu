// c18_sub_self (18-int-as-float): expected NOT_EQUIVALENT: f - f is NaN for f = __uint_as_float(0x7f800000) = +inf, so a + (f - f) is not a.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x u32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c18_sub_self_ref(const float* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c18_sub_self_opt(const float* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  float f = __uint_as_float(b[i]); out[i] = a[i] + (f - f);
}
