// c20_ldg_before_barrier_write (20-memory-formats): expected DATA_RACE: every thread reads its neighbour's x element through ld.global.nc (__ldg) and, after a barrier, writes its own; the read comes first in every schedule, but data the kernel writes at any time must not be read through the non-coherent path.
// Launch: 1 CTA of 32 threads; x: 32 x float (inout); out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c20_ldg_before_barrier_write(float* x, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __ldg(&x[i ^ 1]);
  __syncthreads();
  x[i] = 1.0f;
}
