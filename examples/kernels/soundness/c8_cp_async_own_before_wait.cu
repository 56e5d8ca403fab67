// c8_cp_async_own_before_wait (8-sync-cp-async): expected DATA_RACE: the thread reads its own cp.async destination before the wait: the bytes are still in flight.
// A correct but incomplete tool may answer UNINITIALIZED or UNSUPPORTED or UNKNOWN instead; never RACE_FREE.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
#include <cuda_pipeline.h>
extern "C" __global__ void c8_cp_async_own_before_wait(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  __pipeline_memcpy_async(&s[i], &a[i], sizeof(float));
  __pipeline_commit();
  out[i] = s[i];
  __pipeline_wait_prior(0);
  
}
