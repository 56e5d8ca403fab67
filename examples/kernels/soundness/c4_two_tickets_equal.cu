// c4_two_tickets_equal (4-atomic-returns): expected NOT_EQUIVALENT: two tickets of one thread (same PTX line, loop) are never equal: the reference stores 0.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c4_two_tickets_equal_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  __shared__ unsigned ctr; if (i == 0) ctr = 0; __syncthreads(); unsigned t0 = 0, t1 = 0;
#pragma unroll 1
  for (int k = 0; k < 2; ++k) { unsigned t = atomicAdd(&ctr, 1u); if (k == 0) t0 = t; else t1 = t; }
  out[i] = t0 == t1 ? 1u : 0u;
}
extern "C" __global__ void c4_two_tickets_equal_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = 1u;
}
