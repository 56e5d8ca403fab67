// c19_cvt_f16_rn_vs_rz_bits (19-float-bits-modifiers): expected NOT_EQUIVALENT: the f16 bits of cvt.rn and cvt.rz differ where the f32 value rounds up (a = 1 + 3 * 2^-12).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x u16 (out). Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c19_cvt_f16_rn_vs_rz_bits_ref(const float* a, const float* b, unsigned short* out) {
  unsigned i = threadIdx.x;
  out[i] = __half_as_ushort(__float2half_rn(a[i]));
}
extern "C" __global__ void c19_cvt_f16_rn_vs_rz_bits_opt(const float* a, const float* b, unsigned short* out) {
  unsigned i = threadIdx.x;
  out[i] = __half_as_ushort(__float2half_rz(a[i]));
}
