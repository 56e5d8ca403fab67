// c8_cp_async_wait_no_barrier (8-sync-cp-async): expected DATA_RACE: each thread waits for its own copy, but s[i^1] is another thread's copy and no barrier orders it.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
#include <cuda_pipeline.h>
extern "C" __global__ void c8_cp_async_wait_no_barrier(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  __pipeline_memcpy_async(&s[i], &a[i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[i] = s[i ^ 1];
}
