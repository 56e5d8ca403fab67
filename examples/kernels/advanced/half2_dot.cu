// half2_dot: 16 row dot products of length 64 in packed half2 arithmetic, one thread per row:
//   acc = (0, 0); for j < 32: acc = __hfma2(a2[r][j], b2[r][j], acc)   (fma.rn.f16x2)
//   out[r] = float(acc.low) + float(acc.high)
// a and b are arrays of 16 x 64 __half read as __half2 pairs (one 32-bit load each); the low half
// of a pair is the element at the lower address (even j), so acc.low sums the even products and
// acc.high the odd ones.
//
// Launch: block (16, 1, 1), grid (1, 1, 1).
// Verifier: RACE_FREE; EQUIVALENT to half_dot_ref over the reals (f16 rounding of the products
// and partial sums is not modelled: f16 arithmetic is real arithmetic there). The checker must
// split each 32-bit register into its two f16 lanes (mov.b32 {lo, hi} / cvt.f32.f16).
#include <cuda_fp16.h>

#define ROWS 16
#define COLS 64

extern "C" __global__ void half2_dot(const __half2* a, const __half2* b, float* out) {
  int r = threadIdx.x;
  __half2 acc = __float2half2_rn(0.0f);
  for (int j = 0; j < COLS / 2; ++j) acc = __hfma2(a[r * COLS / 2 + j], b[r * COLS / 2 + j], acc);
  out[r] = __low2float(acc) + __high2float(acc);
}
