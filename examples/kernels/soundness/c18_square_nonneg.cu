// c18_square_nonneg (18-int-as-float): expected NOT_EQUIVALENT: f * f >= 0 is false for a NaN f = __uint_as_float(0x7fc00000).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x u32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c18_square_nonneg_ref(const float* a, const unsigned* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = 1;
}
extern "C" __global__ void c18_square_nonneg_opt(const float* a, const unsigned* b, int* out) {
  unsigned i = threadIdx.x;
  float f = __uint_as_float(b[i]); out[i] = (f * f >= 0.f) ? 1 : 0;
}
