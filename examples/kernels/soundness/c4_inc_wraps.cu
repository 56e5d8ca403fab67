// c4_inc_wraps (4-atomic-returns): expected NOT_EQUIVALENT: atomicInc(&c, 3) wraps to 0 after 3: 32 increments leave 0, atomicAdd leaves 32.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 1 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c4_inc_wraps_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  __shared__ unsigned ctr; if (i == 0) ctr = 0; __syncthreads(); atomicInc(&ctr, 3u); __syncthreads(); if (i == 0) out[0] = ctr;
}
extern "C" __global__ void c4_inc_wraps_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  __shared__ unsigned ctr; if (i == 0) ctr = 0; __syncthreads(); atomicAdd(&ctr, 1u); __syncthreads(); if (i == 0) out[0] = ctr;
}
