// c5_lanemask_lt (5-special-registers): expected EQUIVALENT: %lanemask_lt is (1 << laneid) - 1.
// Launch: 1 CTA of 64 threads; a, b: 64 x unsigned inputs; out: 64 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c5_lanemask_lt_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned v; asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(v)); out[i] = v;
}
extern "C" __global__ void c5_lanemask_lt_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = (1u << (i & 31u)) - 1u;
}
