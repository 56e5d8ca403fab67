// c1_neg_via_wrong_bit (1-untyped-data): expected NOT_EQUIVALENT: xor with 0x40000000 flips an exponent bit, not the sign: a=1 gives +inf, not -1.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c1_neg_via_wrong_bit_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = -a[i];
}
extern "C" __global__ void c1_neg_via_wrong_bit_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __int_as_float(__float_as_int(a[i]) ^ 0x40000000);
}
