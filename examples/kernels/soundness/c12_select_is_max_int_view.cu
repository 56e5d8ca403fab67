// c12_select_is_max_int_view (12-select-sign): expected NOT_EQUIVALENT. The select and fmaxf of
// c12_select_is_max on the float views of u32 inputs, which may be NaN: with x a NaN the select
// keeps x while fmaxf(NaN, y) is y. A select is read as a max only on operands that are numbers.
// Launch: 1 CTA of 32 threads; a, b: 32 x u32 inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c12_select_is_max_int_view_ref(const unsigned* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  const float x = __uint_as_float(a[i]), y = __uint_as_float(b[i]);
  out[i] = x < y ? y : x;
}
extern "C" __global__ void c12_select_is_max_int_view_opt(const unsigned* a, const unsigned* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fmaxf(__uint_as_float(a[i]), __uint_as_float(b[i]));
}
