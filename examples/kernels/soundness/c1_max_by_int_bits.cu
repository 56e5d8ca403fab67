// c1_max_by_int_bits (1-untyped-data): expected NOT_EQUIVALENT: signed-int max of float bit patterns is fmaxf only for non-negative floats: a=-1, b=-2 gives -2.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c1_max_by_int_bits_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fmaxf(a[i], b[i]);
}
extern "C" __global__ void c1_max_by_int_bits_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __int_as_float(max(__float_as_int(a[i]), __float_as_int(b[i])));
}
