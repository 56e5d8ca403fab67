// c5_total_smem_size (5-special-registers): expected UNSUPPORTED: %total_smem_size is what the driver allocates (an H200 reads 0 here), refused at the read.
// A correct but incomplete tool may answer UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c5_total_smem_size_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned v; asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(v)); out[i] = v;
}
extern "C" __global__ void c5_total_smem_size_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = 0u;
}
