// c19_sqrt_rn_vs_rz_bits (19-float-bits-modifiers): expected NOT_EQUIVALENT: the bits of sqrt.rn and sqrt.rz differ where the root rounds up (a=2).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c19_sqrt_rn_vs_rz_bits_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(__fsqrt_rn(fabsf(a[i])));
}
extern "C" __global__ void c19_sqrt_rn_vs_rz_bits_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(__fsqrt_rz(fabsf(a[i])));
}
