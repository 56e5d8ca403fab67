// softmax_online: row-wise softmax of an 8 x 64 matrix, one thread per row, with the online
// (single-pass) normalizer:
//   m_new = max(m, x[j]);  l = l * expf(m - m_new) + expf(x[j] - m_new);  m = m_new
// then y[j] = expf(x[j] - m) / l. At j = 0, m = -INFINITY: max(-inf, x0) = x0 and
// l = 0 * expf(-inf) + 1 = 1 over the reals.
// Accurate expf (no fast math).
//
// Launch: block (8, 1, 1), grid (1, 1, 1).
// Verifier: RACE_FREE; EQUIVALENT to softmax_three_pass over the reals: after step j,
// l = sum_{k<=j} exp(x[k] - m_j) (each rescale multiplies by exp(m_{j-1} - m_j)).
#define ROWS 8
#define COLS 64

extern "C" __global__ void softmax_online(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;

  float m = -INFINITY;
  float l = 0.0f;
  for (int j = 0; j < COLS; ++j) {
    float m_new = fmaxf(m, xr[j]);
    l = l * expf(m - m_new) + expf(xr[j] - m_new);
    m = m_new;
  }

  for (int j = 0; j < COLS; ++j) yr[j] = expf(xr[j] - m) / l;
}
