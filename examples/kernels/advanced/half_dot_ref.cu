// half_dot_ref: the scalar reference of half2_dot: out[r] = sum_j float(a[r][j]) * float(b[r][j])
// over 16 rows of 64 __half, f32 accumulation, one thread per row.
//
// Launch: block (16, 1, 1), grid (1, 1, 1).
// Verifier: RACE_FREE.
#include <cuda_fp16.h>

#define ROWS 16
#define COLS 64

extern "C" __global__ void half_dot_ref(const __half* a, const __half* b, float* out) {
  int r = threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < COLS; ++j) s += __half2float(a[r * COLS + j]) * __half2float(b[r * COLS + j]);
  out[r] = s;
}
