// c12_selp_relu (12-select-sign): expected EQUIVALENT: a > 0 ? a : 0 is fmaxf(a, 0) over the reals.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c12_selp_relu_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float r; asm volatile("{ .reg .pred p; setp.gt.f32 p, %1, 0f00000000; selp.f32 %0, %1, 0f00000000, p; }" : "=f"(r) : "f"(a[i])); out[i] = r;
}
extern "C" __global__ void c12_selp_relu_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fmaxf(a[i], 0.0f);
}
