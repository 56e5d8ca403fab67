// Candidate: the tiled sum whose tail tile is not guarded: the last row reads 8 elements past
// the end of x. Wrong (out of bounds). Launch: block (4, 1, 1), grid (1, 1, 1).
#define COLS 40
#define TILE 16

extern "C" __global__ void cand_tiled_unguarded(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;
  float m = xr[0];
  for (int j = 1; j < COLS; ++j) m = fmaxf(m, xr[j]);
  float s = 0.0f;
  for (int t = 0; t < (COLS + TILE - 1) / TILE; ++t) {
    for (int k = 0; k < TILE; ++k) s += expf(xr[t * TILE + k] - m);
  }
  for (int j = 0; j < COLS; ++j) yr[j] = expf(xr[j] - m) / s;
}
