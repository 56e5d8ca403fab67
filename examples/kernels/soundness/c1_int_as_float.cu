// c1_int_as_float (1-untyped-data): expected NOT_EQUIVALENT: __int_as_float(1) is the denormal 1.4e-45, (float)1 is 1.0.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c1_int_as_float_ref(const int* a, const int* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __int_as_float(a[i]);
}
extern "C" __global__ void c1_int_as_float_opt(const int* a, const int* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = (float)a[i];
}
