// c12_select_is_max_bits (12-select-sign): expected NOT_EQUIVALENT. The same select and fmaxf
// as c12_select_is_max, stored by their bits into a u32 array: at x = -0, y = +0 the select
// keeps x (-0 < +0 is false) while max.f32 gives +0, so the bytes differ. A select read as a
// max is an identity of the reals, not of IEEE bits.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c12_select_is_max_bits_ref(const float* a, const float* b, unsigned* out) {
  unsigned i = threadIdx.x;
  const float x = a[i], y = b[i];
  out[i] = __float_as_uint(x < y ? y : x);
}
extern "C" __global__ void c12_select_is_max_bits_opt(const float* a, const float* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_uint(fmaxf(a[i], b[i]));
}
