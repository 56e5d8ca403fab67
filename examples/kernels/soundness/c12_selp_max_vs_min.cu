// c12_selp_max_vs_min (12-select-sign): expected NOT_EQUIVALENT: a > b ? a : b is the max, not fminf: a=1, b=0.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c12_selp_max_vs_min_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float r; asm volatile("{ .reg .pred p; setp.gt.f32 p, %1, %2; selp.f32 %0, %1, %2, p; }" : "=f"(r) : "f"(a[i]), "f"(b[i])); out[i] = r;
}
extern "C" __global__ void c12_selp_max_vs_min_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fminf(a[i], b[i]);
}
