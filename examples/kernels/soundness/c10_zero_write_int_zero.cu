// c10_zero_write_int_zero (10-initial-contents): expected EQUIVALENT: the output starts zeroed; storing integer 0 leaves the same bytes.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (zero). Part of examples/soundness/manifest.json.
extern "C" __global__ void c10_zero_write_int_zero_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  (void)a; (void)i;
}
extern "C" __global__ void c10_zero_write_int_zero_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  ((int*)out)[i] = 0;
}
