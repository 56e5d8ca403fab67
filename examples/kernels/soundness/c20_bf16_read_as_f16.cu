// c20_bf16_read_as_f16 (20-memory-formats): expected NOT_EQUIVALENT: a is declared bf16; the optimized kernel reads its bits as an f16 (__half2float of the same 16 bits), which is another number (bf16 1.0 = 0x3F80 is f16 1.875), not the bf16 value.
// Launch: 1 CTA of 32 threads; a: 32 x bf16 input; out: 32 x float. Part of examples/soundness/manifest.json.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
extern "C" __global__ void c20_bf16_read_as_f16_ref(const __nv_bfloat16* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __bfloat162float(a[i]);
}
extern "C" __global__ void c20_bf16_read_as_f16_opt(const __nv_bfloat16* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __half2float(reinterpret_cast<const __half*>(a)[i]);
}
