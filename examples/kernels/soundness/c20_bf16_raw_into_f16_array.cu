// c20_bf16_raw_into_f16_array (20-memory-formats): expected NOT_EQUIVALENT: out is declared f16; the reference converts the bf16 a[i] to an f16, the optimized kernel copies its raw bytes (a = 1 leaves 0x3F80, f16 1.875, where the reference stores 0x3C00, 1.0). The converted element keeps a[i]'s node (width changes are idealized) but not its format.
// Launch: 1 CTA of 32 threads; a: 32 x bf16 input; out: 32 x f16. Part of examples/soundness/manifest.json.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
extern "C" __global__ void c20_bf16_raw_into_f16_array_ref(const __nv_bfloat16* a, __half* out) {
  unsigned i = threadIdx.x;
  out[i] = __float2half(__bfloat162float(a[i]));
}
extern "C" __global__ void c20_bf16_raw_into_f16_array_opt(const __nv_bfloat16* a, __half* out) {
  unsigned i = threadIdx.x;
  reinterpret_cast<unsigned short*>(out)[i] = reinterpret_cast<const unsigned short*>(a)[i];
}
