// c20_u16_widen_shl16_is_bits (20-memory-formats): expected NOT_EQUIVALENT: a is declared u16, integer data: its bits shifted into an f32 may be a NaN (a = 0x7FC0), where the optimized kernel's x == x test stores 0; only a bf16-declared array holds real numbers.
// Launch: 1 CTA of 32 threads; a: 32 x u16 input; out: 32 x float. Part of examples/soundness/manifest.json.
extern "C" __global__ void c20_u16_widen_shl16_is_bits_ref(const unsigned short* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __uint_as_float(static_cast<unsigned>(a[i]) << 16);
}
extern "C" __global__ void c20_u16_widen_shl16_is_bits_opt(const unsigned short* a, float* out) {
  unsigned i = threadIdx.x;
  float x = __uint_as_float(static_cast<unsigned>(a[i]) << 16);
  out[i] = x == x ? x : 0.0f;
}
