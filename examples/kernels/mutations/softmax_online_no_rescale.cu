// softmax_online_no_rescale — mutation of softmax/softmax_online (missing online-softmax
// rescale): l = l + expf(x[j] - m_new), without multiplying l by expf(m - m_new) when the
// running max grows; the final l is sum_j exp(x_j - m_j) with the running maxima m_j.
// Launch: block (8, 1, 1), grid (1, 1, 1), as the base.
// Verifier: NOT_EQUIVALENT to softmax_online (e.g. a row 0, 1, 1, ..., 1: the l of the base is
// 63 + e^-1, the mutant's 64).
#define ROWS 8
#define COLS 64

extern "C" __global__ void softmax_online_no_rescale(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;

  float m = -INFINITY;
  float l = 0.0f;
  for (int j = 0; j < COLS; ++j) {
    float m_new = fmaxf(m, xr[j]);
    l = l + expf(xr[j] - m_new);  // BUG: no rescale
    m = m_new;
  }

  for (int j = 0; j < COLS; ++j) yr[j] = expf(xr[j] - m) / l;
}
