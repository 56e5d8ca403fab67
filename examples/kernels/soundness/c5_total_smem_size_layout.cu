// c5_total_smem_size_layout (5-special-registers): expected UNSUPPORTED: %total_smem_size is what the driver allocates; the engine's own layout (256 bytes of red zone here) once stood in for it, and this pair was EQUIVALENT although an H200 stores 0 from the reference.
// A correct but incomplete tool may answer UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c5_total_smem_size_layout_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned v; asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(v)); out[i] = v;
}
extern "C" __global__ void c5_total_smem_size_layout_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = 256u;
}
