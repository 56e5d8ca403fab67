// c9_int_copy_vs_float_convert (9-proof-cache): expected NOT_EQUIVALENT: (float)a stored as f32 vs the integer a stored as s32: same roots as c9_int_copy_twice if cvt and types are dropped.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c9_int_copy_vs_float_convert_ref(const int* a, const int* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = (float)a[i];
}
extern "C" __global__ void c9_int_copy_vs_float_convert_opt(const int* a, const int* b, float* out) {
  unsigned i = threadIdx.x;
  ((int*)out)[i] = a[i];
}
