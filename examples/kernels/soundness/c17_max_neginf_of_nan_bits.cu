// c17_max_neginf_of_nan_bits (17-extended-reals): expected NOT_EQUIVALENT: fmaxf(-INFINITY, f) is -inf where f = __uint_as_float(b) is a NaN; it is not f.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x u32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c17_max_neginf_of_nan_bits_ref(const float* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fmaxf(-INFINITY, __uint_as_float(b[i]));
}
extern "C" __global__ void c17_max_neginf_of_nan_bits_opt(const float* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __uint_as_float(b[i]);
}
