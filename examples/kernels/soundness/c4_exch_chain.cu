// c4_exch_chain (4-atomic-returns): expected NOT_EQUIVALENT: atomicExch returns whatever the previous exchanger left; i-1 is the round-robin schedule only.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c4_exch_chain_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  __shared__ unsigned s; if (i == 0) s = 0; __syncthreads(); out[i] = atomicExch(&s, i);
}
extern "C" __global__ void c4_exch_chain_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = i == 0 ? 0u : i - 1u;
}
