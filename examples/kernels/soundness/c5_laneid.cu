// c5_laneid (5-special-registers): expected EQUIVALENT: %laneid is tid.x mod 32 in a 1-D CTA.
// Launch: 1 CTA of 64 threads; a, b: 64 x unsigned inputs; out: 64 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c5_laneid_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned v; asm volatile("mov.u32 %0, %%laneid;" : "=r"(v)); out[i] = v;
}
extern "C" __global__ void c5_laneid_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = i & 31u;
}
