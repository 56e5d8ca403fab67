// c18_le_fmax (18-int-as-float): expected NOT_EQUIVALENT: f <= fmaxf(f, a) is false for a NaN f: fmaxf(NaN, a) is a, and NaN <= a is false.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x u32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c18_le_fmax_ref(const float* a, const unsigned* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = 1;
}
extern "C" __global__ void c18_le_fmax_opt(const float* a, const unsigned* b, int* out) {
  unsigned i = threadIdx.x;
  float f = __uint_as_float(b[i]); out[i] = (f <= fmaxf(f, a[i])) ? 1 : 0;
}
