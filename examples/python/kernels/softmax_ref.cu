// softmax_ref: the reference of the Python example loop. Row-wise softmax of a 4 x 40 matrix,
// one thread per row, three passes: the row maximum, the sum of exponentials, the quotients.
// Launch: block (4, 1, 1), grid (1, 1, 1).
#define ROWS 4
#define COLS 40

extern "C" __global__ void softmax_ref(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;
  float m = xr[0];
  for (int j = 1; j < COLS; ++j) m = fmaxf(m, xr[j]);
  float s = 0.0f;
  for (int j = 0; j < COLS; ++j) s += expf(xr[j] - m);
  for (int j = 0; j < COLS; ++j) yr[j] = expf(xr[j] - m) / s;
}
