// Packed f32 -> bf16x2 conversion (cvt.rn.bf16x2.f32) against two scalar conversions, and the
// bf16 -> f32 widenings nvcc emits (cvt.f32.bf16 and mov.b32 %f, {0, %h}).
#include <cuda_bf16.h>
extern "C" __global__ void bf16x2_cvt_ref(const float* a, const float* b, __nv_bfloat16* out) {
  int i = threadIdx.x;
  out[2 * i] = __float2bfloat16(a[i]);
  out[2 * i + 1] = __float2bfloat16(b[i]);
}
extern "C" __global__ void bf16x2_cvt(const float* a, const float* b, __nv_bfloat162* out) {
  int i = threadIdx.x;
  out[i] = __floats2bfloat162_rn(a[i], b[i]);
}
extern "C" __global__ void bf16_widen_ref(const float* a, const float* b, float* out) {
  int i = threadIdx.x;
  out[i] = a[i] * 2.0f + b[i];
}
// __bfloat162float is mov.b32 %f, {0, %h}; __low2float / __high2float of a bf16x2 register
// unpack it first.
extern "C" __global__ void bf16_widen(const float* a, const float* b, float* out) {
  int i = threadIdx.x;
  __nv_bfloat162 p = __floats2bfloat162_rn(a[i], b[i]);
  out[i] = __bfloat162float(__float2bfloat16(a[i])) + __low2float(p) + __high2float(p);
}
// Trap: an f16's bits widened as if they were a bf16's (mov.b32 %f, {0, %h} of f16 data) are
// another number: never EQUIVALENT to bf16_widen_ref (UNSUPPORTED: a reinterpretation).
#include <cuda_fp16.h>
extern "C" __global__ void f16_widened_as_bf16(const float* a, const float* b, float* out) {
  int i = threadIdx.x;
  __nv_bfloat16 h = __ushort_as_bfloat16(__half_as_ushort(__float2half(a[i])));
  out[i] = __bfloat162float(h) + __bfloat162float(h) + b[i];
}
