// c2_shift_ge_width_const (2-integer-wrap): expected NOT_EQUIVALENT: PTX shl.b32 by 33 gives 0 (amounts are clamped, not taken mod 32).
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_shift_ge_width_const_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("shl.b32 %0, %1, 33;" : "=r"(r) : "r"(a[i])); out[i] = r;
}
extern "C" __global__ void c2_shift_ge_width_const_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] << 1;
}
