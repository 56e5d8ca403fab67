// c22_nan_bits_guard (22-crosscheck): expected NOT_EQUIVALENT or UNSUPPORTED, never EQUIVALENT: the reference stores a's bits as a float but 0 where they are a NaN or an infinity; the optimized kernel stores the bits as they are.
// Launch: 1 CTA of 32 threads; a: 32 x u32 input (bits read as floats), b: unused; out: 32 x f32. Part of examples/soundness/manifest.json; the emulator cross-check's own tests run it on NaN and infinity bit patterns (tests/emulate/cross_check_run_test.cpp).
extern "C" __global__ void c22_nan_bits_guard_ref(const unsigned* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float x = __int_as_float(a[i]);
  out[i] = (isnan(x) || isinf(x)) ? 0.0f : x;
}
extern "C" __global__ void c22_nan_bits_guard_opt(const unsigned* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __int_as_float(a[i]);
}
