// c20_ldg_after_barrier_write (20-memory-formats): expected DATA_RACE: every thread writes buf[i], and after a barrier reads its neighbour's element through the non-coherent path (__ldg, ld.global.nc); data the kernel writes must not be read through it (CUDA Programming Guide, read-only data cache), barrier or not: it may return the old value.
// Launch: 1 CTA of 32 threads; a: 32 x float input; buf: 32 x float (zero); out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c20_ldg_after_barrier_write(const float* a, float* buf, float* out) {
  unsigned i = threadIdx.x;
  buf[i] = a[i] * 2.0f;
  __syncthreads();
  out[i] = __ldg(&buf[i ^ 1]);
}
