// c20_f16_narrowed_read_as_bf16 (20-memory-formats): expected NOT_EQUIVALENT: the optimized kernel narrows to f16 and widens the same 16 bits as a bf16, a reinterpretation (x = 1 gives 0.0078125), where the reference narrows to bf16 and widens back (x, as width changes are idealized).
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Part of examples/soundness/manifest.json.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
extern "C" __global__ void c20_f16_narrowed_read_as_bf16_ref(const float* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __bfloat162float(__float2bfloat16(a[i]));
}
extern "C" __global__ void c20_f16_narrowed_read_as_bf16_opt(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __half h = __float2half(a[i]);
  out[i] = __bfloat162float(*reinterpret_cast<__nv_bfloat16*>(&h));
}
