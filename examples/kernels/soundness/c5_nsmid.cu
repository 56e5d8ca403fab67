// c5_nsmid (5-special-registers): expected NOT_EQUIVALENT: %nsmid is the number of SM ids of the device (108 on A100), not 1.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c5_nsmid_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned v; asm volatile("mov.u32 %0, %%nsmid;" : "=r"(v)); out[i] = v;
}
extern "C" __global__ void c5_nsmid_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = 1u;
}
