// c8_atomic_vs_plain_read (8-sync-cp-async): expected DATA_RACE: thread 1 reads s plainly while other threads atomicAdd to it, with no barrier.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_atomic_vs_plain_read(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ unsigned s; if (i == 0) s = 0; __syncthreads();
  atomicAdd(&s, 1u);
  if (i == 1) out[0] = (float)s;
}
