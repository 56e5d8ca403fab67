// c7_fast_exp_wrong_const (7-expf-idiom): expected NOT_EQUIVALENT: ex2(a * 0f3FB8AA3A) is not __expf(a) = ex2(a * 0f3FB8AA3B) (the lifting must check the constant).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c7_fast_exp_wrong_const_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __expf(a[i]);
}
extern "C" __global__ void c7_fast_exp_wrong_const_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float r; asm volatile("{ .reg .f32 t; mul.f32 t, %1, 0f3FB8AA3A; ex2.approx.f32 %0, t; }" : "=f"(r) : "f"(a[i])); out[i] = r;
}
