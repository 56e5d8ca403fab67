// c18_setp_nan_vs_ne (18-int-as-float): expected NOT_EQUIVALENT: setp.nan f, f is true for a NaN f, setp.ne f, f (ordered) is false for every f.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x u32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c18_setp_nan_vs_ne_ref(const float* a, const unsigned* b, int* out) {
  unsigned i = threadIdx.x;
  float f = __uint_as_float(b[i]); int r; asm("{.reg .pred p; setp.nan.f32 p, %1, %1; selp.s32 %0, 1, 0, p;}" : "=r"(r) : "f"(f)); out[i] = r;
}
extern "C" __global__ void c18_setp_nan_vs_ne_opt(const float* a, const unsigned* b, int* out) {
  unsigned i = threadIdx.x;
  float f = __uint_as_float(b[i]); int r; asm("{.reg .pred p; setp.ne.f32 p, %1, %1; selp.s32 %0, 1, 0, p;}" : "=r"(r) : "f"(f)); out[i] = r;
}
