// c4_ticket_vs_tid (4-atomic-returns): expected NOT_EQUIVALENT: atomicAdd tickets depend on the schedule; thread order (ticket == tid) is one schedule of many.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c4_ticket_vs_tid_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  __shared__ unsigned ctr; if (i == 0) ctr = 0; __syncthreads(); out[i] = atomicAdd(&ctr, 1u);
}
extern "C" __global__ void c4_ticket_vs_tid_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = i;
}
