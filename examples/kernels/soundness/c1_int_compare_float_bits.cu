// c1_int_compare_float_bits (1-untyped-data): expected NOT_EQUIVALENT: signed compare of float bits inverts the order of negatives: a=-2, b=-1.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c1_int_compare_float_bits_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] < b[i] ? 1.0f : 0.0f;
}
extern "C" __global__ void c1_int_compare_float_bits_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(a[i]) < __float_as_int(b[i]) ? 1.0f : 0.0f;
}
