// Candidate: a row stride off by one (rows start every 39 elements). Wrong.
// Launch: block (4, 1, 1), grid (1, 1, 1).
#define COLS 40

extern "C" __global__ void cand_row_stride(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * (COLS - 1);
  float* yr = y + row * COLS;
  float m = xr[0];
  for (int j = 1; j < COLS; ++j) m = fmaxf(m, xr[j]);
  float s = 0.0f;
  for (int j = 0; j < COLS; ++j) s += expf(xr[j] - m);
  for (int j = 0; j < COLS; ++j) yr[j] = expf(xr[j] - m) / s;
}
