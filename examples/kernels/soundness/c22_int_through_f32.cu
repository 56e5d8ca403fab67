// c22_int_through_f32 (22-crosscheck): expected NOT_EQUIVALENT: the optimized kernel sends a[i] through an f32, which rounds integers above 2^24 (2^24 + 1 becomes 2^24).
// Launch: 1 CTA of 32 threads; a: 32 x s32 input, b: unused; out: 32 x s32. Part of examples/soundness/manifest.json; the emulator cross-check's own tests run it on 2^24 + 1 (tests/emulate/cross_check_run_test.cpp).
extern "C" __global__ void c22_int_through_f32_ref(const int* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c22_int_through_f32_opt(const int* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)(float)a[i];
}
