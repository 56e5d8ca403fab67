// c5_smid_address (5-special-registers): expected NOT_EQUIVALENT: the element written depends on %smid.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (zero). Part of examples/soundness/manifest.json.
extern "C" __global__ void c5_smid_address_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned v; asm volatile("mov.u32 %0, %%smid;" : "=r"(v)); if (i == 0) out[v & 31u] = 1u;
}
extern "C" __global__ void c5_smid_address_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  if (i == 0) out[0] = 1u;
}
