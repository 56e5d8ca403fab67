// Candidate: the sum in tiles of 16 columns with a guarded tail tile (40 = 2 x 16 + 8). Right.
// Launch: block (4, 1, 1), grid (1, 1, 1).
#define COLS 40
#define TILE 16

extern "C" __global__ void cand_tiled(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;
  float m = xr[0];
  for (int j = 1; j < COLS; ++j) m = fmaxf(m, xr[j]);
  float s = 0.0f;
  for (int t = 0; t < (COLS + TILE - 1) / TILE; ++t) {
    float partial = 0.0f;
    for (int k = 0; k < TILE; ++k) {
      int j = t * TILE + k;
      if (j < COLS) partial += expf(xr[j] - m);
    }
    s += partial;
  }
  for (int j = 0; j < COLS; ++j) yr[j] = expf(xr[j] - m) / s;
}
