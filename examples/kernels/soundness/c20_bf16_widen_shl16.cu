// c20_bf16_widen_shl16 (20-memory-formats): expected EQUIVALENT: a is declared bf16; widening its 16 bits by hand (a 16-bit integer load, shifted left by 16, read as an f32) is __bfloat162float: a bf16 is the high half of the f32 of the same value.
// Launch: 1 CTA of 32 threads; a: 32 x bf16 input; out: 32 x float. Part of examples/soundness/manifest.json.
#include <cuda_bf16.h>
extern "C" __global__ void c20_bf16_widen_shl16_ref(const __nv_bfloat16* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __bfloat162float(a[i]) * 2.0f;
}
extern "C" __global__ void c20_bf16_widen_shl16_opt(const unsigned short* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __uint_as_float(static_cast<unsigned>(a[i]) << 16) * 2.0f;
}
