// Candidate: the tiled sum that drops the tail tile (COLS / TILE = 2 tiles: the last 8 columns
// never enter the sum). Wrong. Launch: block (4, 1, 1), grid (1, 1, 1).
#define COLS 40
#define TILE 16

extern "C" __global__ void cand_tiled_no_tail(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;
  float m = xr[0];
  for (int j = 1; j < COLS; ++j) m = fmaxf(m, xr[j]);
  float s = 0.0f;
  for (int t = 0; t < COLS / TILE; ++t) {
    for (int k = 0; k < TILE; ++k) s += expf(xr[t * TILE + k] - m);
  }
  for (int j = 0; j < COLS; ++j) yr[j] = expf(xr[j] - m) / s;
}
