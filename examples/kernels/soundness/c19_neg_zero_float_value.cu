// c19_neg_zero_float_value (19-float-bits-modifiers): expected EQUIVALENT: -0.0f and +0.0f stored into a float array are the same real number (compared over the reals).
// A correct tool must decide it: EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c19_neg_zero_float_value_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float z; asm("mov.f32 %0, 0f80000000;" : "=f"(z)); out[i] = a[i] * 0.f + z + a[i];
}
extern "C" __global__ void c19_neg_zero_float_value_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
