// c3_min_xorsign_abs (3-opaque-ops): expected NOT_EQUIVALENT: min.xorsign.abs.f32 is the smaller magnitude with the sign of a*b (a=-2, b=-1: 1 against -2); the engine ran it as min.f32 and answered EQUIVALENT.
// A correct but incomplete tool may answer UNSUPPORTED instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_min_xorsign_abs_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fminf(a[i], b[i]);
}
extern "C" __global__ void c3_min_xorsign_abs_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float r;
  asm("min.xorsign.abs.f32 %0, %1, %2;" : "=f"(r) : "f"(a[i]), "f"(b[i]));
  out[i] = r;
}
