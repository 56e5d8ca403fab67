// c8_cp_async_wait_then_barrier (8-sync-cp-async): expected RACE_FREE: wait_all then __syncthreads: every copy is complete and ordered before the reads.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
#include <cuda_pipeline.h>
extern "C" __global__ void c8_cp_async_wait_then_barrier(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  __pipeline_memcpy_async(&s[i], &a[i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = s[i ^ 1];
}
