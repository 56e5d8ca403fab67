// c19_satfinite_bits (19-float-bits-modifiers): expected NOT_EQUIVALENT: cvt.rn.satfinite.f16.f32 of 1e6 is 65504 (0x7bff), cvt.rn.f16.f32 of it +inf (0x7c00).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x u16 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c19_satfinite_bits_ref(const float* a, const float* b, unsigned short* out) {
  unsigned i = threadIdx.x;
  unsigned short h; asm("{.reg .f32 x; mov.f32 x, 0f49742400; cvt.rn.satfinite.f16.f32 %0, x;}" : "=h"(h)); out[i] = h;
}
extern "C" __global__ void c19_satfinite_bits_opt(const float* a, const float* b, unsigned short* out) {
  unsigned i = threadIdx.x;
  unsigned short h; asm("{.reg .f32 x; mov.f32 x, 0f49742400; cvt.rn.f16.f32 %0, x;}" : "=h"(h)); out[i] = h;
}
