// c20_bf16_stored_as_f16 (20-memory-formats): expected NOT_EQUIVALENT: out is declared f16; the optimized kernel stores the bf16 bits of a[i] in it, which read as f16 are another number (a = 1 stores 0x3F80, f16 1.875), not a[i].
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x f16. Part of examples/soundness/manifest.json.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
extern "C" __global__ void c20_bf16_stored_as_f16_ref(const float* a, __half* out) {
  unsigned i = threadIdx.x;
  out[i] = __float2half(a[i]);
}
extern "C" __global__ void c20_bf16_stored_as_f16_opt(const float* a, __half* out) {
  unsigned i = threadIdx.x;
  reinterpret_cast<__nv_bfloat16*>(out)[i] = __float2bfloat16(a[i]);
}
