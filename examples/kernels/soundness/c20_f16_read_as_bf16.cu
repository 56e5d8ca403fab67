// c20_f16_read_as_bf16 (20-memory-formats): expected NOT_EQUIVALENT: a is declared f16; the optimized kernel converts its bits as a bf16 (cvt.f32.bf16), which is another number (f16 1.0 = 0x3C00 is bf16 0.0078125), not the f16 value.
// Launch: 1 CTA of 32 threads; a: 32 x f16 input; out: 32 x float. Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c20_f16_read_as_bf16_ref(const __half* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __half2float(a[i]);
}
extern "C" __global__ void c20_f16_read_as_bf16_opt(const __half* a, float* out) {
  unsigned i = threadIdx.x;
  unsigned short bits = reinterpret_cast<const unsigned short*>(a)[i];
  float f;
  asm("cvt.f32.bf16 %0, %1;" : "=f"(f) : "h"(bits));
  out[i] = f;
}
