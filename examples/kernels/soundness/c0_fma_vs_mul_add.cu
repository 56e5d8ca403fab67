// c0_fma_vs_mul_add (controls): expected EQUIVALENT: fmaf(a,b,c) = a*b+c over the reals.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c0_fma_vs_mul_add_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fmaf(a[i], b[i], a[i ^ 1]);
}
extern "C" __global__ void c0_fma_vs_mul_add_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __fadd_rn(__fmul_rn(a[i], b[i]), a[i ^ 1]);
}
