// c4_cas_winner (4-atomic-returns): expected NOT_EQUIVALENT: which thread wins atomicCAS depends on the schedule.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c4_cas_winner_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  __shared__ unsigned f; if (i == 0) f = 0; __syncthreads(); out[i] = atomicCAS(&f, 0u, i + 1u) == 0u ? 1u : 0u;
}
extern "C" __global__ void c4_cas_winner_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = i == 0 ? 1u : 0u;
}
