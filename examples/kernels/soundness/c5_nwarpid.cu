// c5_nwarpid (5-special-registers): expected NOT_EQUIVALENT: %nwarpid is the SM's number of warp slots, not the CTA's warp count.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 64 threads; a, b: 64 x unsigned inputs; out: 64 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c5_nwarpid_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned v; asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(v)); out[i] = v;
}
extern "C" __global__ void c5_nwarpid_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = 2u;
}
