// c4_ticket_vs_neighbour (4-atomic-returns): expected NOT_EQUIVALENT: two threads' atomicAdd tickets are different numbers.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c4_ticket_vs_neighbour_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  __shared__ unsigned ctr; if (i == 0) ctr = 0; __syncthreads(); unsigned t = atomicAdd(&ctr, 1u); out[i] = t;
}
extern "C" __global__ void c4_ticket_vs_neighbour_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  __shared__ unsigned ctr; if (i == 0) ctr = 0; __syncthreads(); unsigned t = atomicAdd(&ctr, 1u); out[i] = __shfl_sync(0xffffffffu, t, i ^ 1);
}
