// c2_shift_amount_data (2-integer-wrap): expected NOT_EQUIVALENT: b=32: shl.b32 by 32 gives 0, a << (b & 31) gives a.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_shift_amount_data_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned r; asm volatile("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(a[i]), "r"(b[i])); out[i] = r;
}
extern "C" __global__ void c2_shift_amount_data_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] << (b[i] & 31u);
}
