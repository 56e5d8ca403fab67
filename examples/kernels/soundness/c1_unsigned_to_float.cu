// c1_unsigned_to_float (1-untyped-data): expected NOT_EQUIVALENT: (float)(unsigned)a is 4294967295 at a=-1, (float)a is -1.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c1_unsigned_to_float_ref(const int* a, const int* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = (float)(unsigned)a[i];
}
extern "C" __global__ void c1_unsigned_to_float_opt(const int* a, const int* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = (float)a[i];
}
