// c5_clock_hi (5-special-registers): expected NOT_EQUIVALENT: %clock_hi is the upper half of the SM cycle counter, not 0: a[i] + %clock_hi is not a[i].
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c5_clock_hi_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned v; asm volatile("mov.u32 %0, %%clock_hi;" : "=r"(v)); out[i] = a[i] + v;
}
extern "C" __global__ void c5_clock_hi_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
