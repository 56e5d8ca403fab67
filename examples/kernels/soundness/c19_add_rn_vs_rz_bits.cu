// c19_add_rn_vs_rz_bits (19-float-bits-modifiers): expected NOT_EQUIVALENT: the bits of __fadd_rn(a, b) and __fadd_rz(a, b) differ where the sum rounds (a=1, b=2^-24 * 3).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c19_add_rn_vs_rz_bits_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(__fadd_rn(a[i], b[i]));
}
extern "C" __global__ void c19_add_rn_vs_rz_bits_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(__fadd_rz(a[i], b[i]));
}
