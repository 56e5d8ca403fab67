// Packed f16x2 / bf16x2 arithmetic (add, sub, mul, fma, max, min, neg, abs per half) against
// the same expression on scalars in f32.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__device__ float expr(float a, float b) {
  return fmaf(a, b, fmaxf(-a, fabsf(b))) + a * b - fminf(a, b);
}
extern "C" __global__ void h2_arith_ref(const __half* a, const __half* b, __half* out) {
  int i = threadIdx.x;
  out[i] = __float2half(expr(__half2float(a[i]), __half2float(b[i])));
}
extern "C" __global__ void h2_arith(const __half2* a, const __half2* b, __half2* out) {
  int i = threadIdx.x;
  __half2 x = a[i], y = b[i];
  out[i] = __hfma2(x, y, __hmax2(__hneg2(x), __habs2(y))) + __hmul2(x, y) - __hmin2(x, y);
}
extern "C" __global__ void bf2_arith_ref(const __nv_bfloat16* a, const __nv_bfloat16* b,
                                         __nv_bfloat16* out) {
  int i = threadIdx.x;
  out[i] = __float2bfloat16(expr(__bfloat162float(a[i]), __bfloat162float(b[i])));
}
extern "C" __global__ void bf2_arith(const __nv_bfloat162* a, const __nv_bfloat162* b,
                                     __nv_bfloat162* out) {
  int i = threadIdx.x;
  __nv_bfloat162 x = a[i], y = b[i];
  out[i] = __hfma2(x, y, __hmax2(__hneg2(x), __habs2(y))) + __hmul2(x, y) - __hmin2(x, y);
}
