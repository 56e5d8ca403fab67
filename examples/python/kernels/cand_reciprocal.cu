// Candidate: one reciprocal of the sum, then a product per element. Right over the reals.
// Launch: block (4, 1, 1), grid (1, 1, 1).
#define COLS 40

extern "C" __global__ void cand_reciprocal(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;
  float m = xr[0];
  for (int j = 1; j < COLS; ++j) m = fmaxf(m, xr[j]);
  float s = 0.0f;
  for (int j = 0; j < COLS; ++j) s += expf(xr[j] - m);
  float inv = 1.0f / s;
  for (int j = 0; j < COLS; ++j) yr[j] = expf(xr[j] - m) * inv;
}
