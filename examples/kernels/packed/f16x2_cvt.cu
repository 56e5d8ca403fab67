// Packed f32 -> f16x2 conversion (cvt.rn.f16x2.f32: d.hi = first operand, d.lo = second)
// against two scalar conversions. Over the reals both store a[i] at out[2i] and b[i] at out[2i+1].
#include <cuda_fp16.h>
extern "C" __global__ void f16x2_cvt_ref(const float* a, const float* b, __half* out) {
  int i = threadIdx.x;
  out[2 * i] = __float2half(a[i]);
  out[2 * i + 1] = __float2half(b[i]);
}
extern "C" __global__ void f16x2_cvt(const float* a, const float* b, __half2* out) {
  int i = threadIdx.x;
  out[i] = __floats2half2_rn(a[i], b[i]);
}
// Mutant: the operands swapped (d.hi = a): NOT_EQUIVALENT to f16x2_cvt_ref.
extern "C" __global__ void f16x2_cvt_swapped(const float* a, const float* b, __half2* out) {
  int i = threadIdx.x;
  out[i] = __floats2half2_rn(b[i], a[i]);
}
