// c20_cp_async_zfill_guard (20-memory-formats): expected EQUIVALENT: CUTLASS's cp_async_zfill (src-size 16 when the guard holds, 0 otherwise) and __pipeline_memcpy_async with a zero fill write a[i] or zeros, as the reference's guarded loop.
// Launch: 1 CTA of 32 threads; a: 128 x float input; out: 128 x float. Part of examples/soundness/manifest.json.
#include <cuda_pipeline.h>
extern "C" __global__ void c20_cp_async_zfill_guard_ref(const float* a, float* out) {
  unsigned t = threadIdx.x;
  for (unsigned k = 0; k < 4; ++k)
    out[4 * t + k] = t < 20 ? a[4 * t + k] : 0.0f;
}
extern "C" __global__ void c20_cp_async_zfill_guard_opt(const float* a, float* out) {
  unsigned t = threadIdx.x;
  __shared__ __align__(16) float s[128];
  unsigned slot = static_cast<unsigned>(__cvta_generic_to_shared(&s[4 * t]));
  int src_in_bytes = t < 20 ? 16 : 0;
  if (t % 2 == 0) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(slot), "l"(&a[4 * t]),
                 "r"(src_in_bytes));
  } else {
    __pipeline_memcpy_async(&s[4 * t], &a[4 * t], 16, t < 20 ? 0 : 16);
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  for (unsigned k = 0; k < 4; ++k)
    out[4 * t + k] = s[4 * t + k];
}
