// softmax_swapped_div — mutation of softmax/softmax_three_pass (swapped operands of /): the
// normalize pass computes s / expf(x[j] - m) instead of expf(x[j] - m) / s.
// Launch: block (8, 1, 1), grid (1, 1, 1), as the base.
// Verifier: NOT_EQUIVALENT to softmax_three_pass.
#define ROWS 8
#define COLS 64

extern "C" __global__ void softmax_swapped_div(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;

  float m = -INFINITY;
  for (int j = 0; j < COLS; ++j) m = fmaxf(m, xr[j]);

  float s = 0.0f;
  for (int j = 0; j < COLS; ++j) s += expf(xr[j] - m);

  for (int j = 0; j < COLS; ++j) yr[j] = s / expf(xr[j] - m);  // BUG: s / e
}
