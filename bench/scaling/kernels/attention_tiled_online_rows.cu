// attention_tiled_online_rows: the attention of attention_naive_rows with online softmax: key and
// value tiles of 32 rows staged in shared memory by the block's 32 threads (one row each), and a
// running maximum updated key by key inside the tile (not once per tile): each key that raises
// the maximum rescales the running sum and accumulator by expf(m_old - m_new).
// Launch: block (32, 1, 1), grid (l / 32, 1, 1); l a multiple of 32.
#define D 16
#define BK 32
#define SCALE 0.25f
extern "C" __global__ void attention_tiled_online_rows(const float* Q, const float* K,
                                                       const float* V, float* O, int l) {
  __shared__ float Ks[BK][D];
  __shared__ float Vs[BK][D];
  int t = threadIdx.x;
  int q = blockIdx.x * blockDim.x + t;
  float qr[D];
  for (int d = 0; d < D; ++d) qr[d] = SCALE * Q[q * D + d];
  float m = -INFINITY, sum = 0.0f;
  float acc[D];
  for (int d = 0; d < D; ++d) acc[d] = 0.0f;
  for (int j0 = 0; j0 < l; j0 += BK) {
    for (int d = 0; d < D; ++d) {
      Ks[t][d] = K[(j0 + t) * D + d];
      Vs[t][d] = V[(j0 + t) * D + d];
    }
    __syncthreads();
    for (int j = 0; j < BK; ++j) {
      float s = 0.0f;
      for (int d = 0; d < D; ++d) s += qr[d] * Ks[j][d];
      float m_new = fmaxf(m, s);
      float rescale = expf(m - m_new);
      float p = expf(s - m_new);
      sum = sum * rescale + p;
      for (int d = 0; d < D; ++d) acc[d] = acc[d] * rescale + p * Vs[j][d];
      m = m_new;
    }
    __syncthreads();
  }
  for (int d = 0; d < D; ++d) O[q * D + d] = acc[d] / sum;
}
