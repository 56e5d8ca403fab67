// c2_add_sub_cancel (2-integer-wrap): expected EQUIVALENT: (a+b)-b = a modulo 2^32, even when a+b wraps.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_add_sub_cancel_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c2_add_sub_cancel_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned t, r; asm volatile("add.u32 %0, %1, %2;" : "=r"(t) : "r"(a[i]), "r"(b[i])); asm volatile("sub.u32 %0, %1, %2;" : "=r"(r) : "r"(t), "r"(b[i])); out[i] = r;
}
