// c8_cp_async_read_before_wait (8-sync-cp-async): expected DATA_RACE: s[i^1] is read after __syncthreads but before the cp.async that writes it is waited for.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
#include <cuda_pipeline.h>
extern "C" __global__ void c8_cp_async_read_before_wait(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  __pipeline_memcpy_async(&s[i], &a[i], sizeof(float));
  __pipeline_commit();
  __syncthreads();
  out[i] = s[i ^ 1];
  __pipeline_wait_prior(0);
  
}
