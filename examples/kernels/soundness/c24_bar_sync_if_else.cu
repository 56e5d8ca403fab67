// c24_bar_sync_if_else (24-control): expected BARRIER_DIVERGENCE. The if/else of
// c24_barrier_if_else with __syncthreads() in each side: nvcc emits `bar.sync 0`, which is
// `barrier.sync.aligned` (PTX ISA, "barrier"): every thread of the CTA must execute that one
// instruction, and even and odd lanes execute two different ones (undefined behaviour).
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check.
extern "C" __global__ void c24_bar_sync_if_else(const float* a, float* out) {
  __shared__ float s[64];
  const unsigned i = threadIdx.x;
  if (i & 1) {
    s[i] = a[i] * 3.0f;
    __syncthreads();
  } else {
    s[i] = a[i] + 1.0f;
    __syncthreads();
  }
  out[i] = s[63 - i];
}
