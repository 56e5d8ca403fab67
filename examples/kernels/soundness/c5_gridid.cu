// c5_gridid (5-special-registers): expected NOT_EQUIVALENT: %gridid is a launch id assigned by the driver, not 0.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c5_gridid_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned long long g; asm volatile("mov.u64 %0, %%gridid;" : "=l"(g)); out[i] = (unsigned)g;
}
extern "C" __global__ void c5_gridid_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = 0u;
}
