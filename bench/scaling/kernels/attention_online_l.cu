// attention_online_l: the same attention with online softmax: key/value tiles of 16 rows
// staged in shared memory by the block's 16 threads (one row each), a running maximum and a
// running sum, the accumulator rescaled by expf(m_old - m_new) whenever the maximum grows.
// Launch: block (16, 1, 1), grid (l / 16, 1, 1); l a multiple of 16.
#define D 16
#define BK 16
#define SCALE 0.25f
extern "C" __global__ void attention_online_l(const float* Q, const float* K, const float* V,
                                              float* O, int l) {
  __shared__ float Ks[BK][D];
  __shared__ float Vs[BK][D];
  int t = threadIdx.x;
  int q = blockIdx.x * blockDim.x + t;
  float qr[D];
  for (int d = 0; d < D; ++d) qr[d] = Q[q * D + d];
  float m = -INFINITY, sum = 0.0f;
  float acc[D];
  for (int d = 0; d < D; ++d) acc[d] = 0.0f;
  for (int j0 = 0; j0 < l; j0 += BK) {
    for (int d = 0; d < D; ++d) {
      Ks[t][d] = K[(j0 + t) * D + d];
      Vs[t][d] = V[(j0 + t) * D + d];
    }
    __syncthreads();
    float s[BK];
    float tile_max = -INFINITY;
    for (int j = 0; j < BK; ++j) {
      float dot = 0.0f;
      for (int d = 0; d < D; ++d) dot += qr[d] * Ks[j][d];
      s[j] = SCALE * dot;
      tile_max = fmaxf(tile_max, s[j]);
    }
    float m_new = fmaxf(m, tile_max);
    float rescale = expf(m - m_new);
    sum *= rescale;
    for (int d = 0; d < D; ++d) acc[d] *= rescale;
    for (int j = 0; j < BK; ++j) {
      float p = expf(s[j] - m_new);
      sum += p;
      for (int d = 0; d < D; ++d) acc[d] += p * Vs[j][d];
    }
    m = m_new;
    __syncthreads();
  }
  for (int d = 0; d < D; ++d) O[q * D + d] = acc[d] / sum;
}
