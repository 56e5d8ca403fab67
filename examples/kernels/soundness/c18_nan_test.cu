// c18_nan_test (18-int-as-float): expected NOT_EQUIVALENT: __uint_as_float(b) is a NaN for b = 0x7fc00000, so f != f is true.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x u32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c18_nan_test_ref(const float* a, const unsigned* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = 0;
}
extern "C" __global__ void c18_nan_test_opt(const float* a, const unsigned* b, int* out) {
  unsigned i = threadIdx.x;
  float f = __uint_as_float(b[i]); out[i] = (f != f) ? 1 : 0;
}
