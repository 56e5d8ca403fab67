// Candidate: the online normalizer that forgets to rescale the running sum when the maximum
// grows (l += expf(x - m_new) instead of l = l * expf(m - m_new) + ...). Wrong.
// Launch: block (4, 1, 1), grid (1, 1, 1).
#define COLS 40

extern "C" __global__ void cand_online_no_rescale(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;
  float m = -INFINITY, l = 0.0f;
  for (int j = 0; j < COLS; ++j) {
    float m_new = fmaxf(m, xr[j]);
    l = l + expf(xr[j] - m_new);
    m = m_new;
  }
  for (int j = 0; j < COLS; ++j) yr[j] = expf(xr[j] - m) / l;
}
