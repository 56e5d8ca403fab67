// c5_warpid (5-special-registers): expected NOT_EQUIVALENT: %warpid is the warp's slot on the SM and may change over its life; it is not tid/32.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 64 threads; a, b: 64 x unsigned inputs; out: 64 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c5_warpid_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned v; asm volatile("mov.u32 %0, %%warpid;" : "=r"(v)); out[i] = v;
}
extern "C" __global__ void c5_warpid_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = i / 32u;
}
