// c2_abs_int_min (2-integer-wrap): expected NOT_EQUIVALENT: abs.s32(INT_MIN) = INT_MIN < 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_abs_int_min_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  int r; asm volatile("abs.s32 %0, %1;" : "=r"(r) : "r"(a[i])); out[i] = r < 0 ? 1 : 0;
}
extern "C" __global__ void c2_abs_int_min_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = 0;
}
