// flash_no_acc_rescale — mutation of attention/flash_attention (missing rescale of the running
// output): acc is not multiplied by corr = expf(m - m_new) at a new tile (l still is), so tiles
// processed before the running max grew keep their old, too large weights.
// Launch: block (16, 1, 1), grid (1, 1, 1), as the base.
// Verifier: NOT_EQUIVALENT to flash_attention (and to attention_naive) whenever a later tile
// raises the running max.
#define NQ 16
#define NK 64
#define D 16
#define BK 16
#define SCALE 0.25f

extern "C" __global__ void flash_no_acc_rescale(const float* Q, const float* K, const float* V,
                                           float* O) {
  __shared__ float Ks[BK][D];
  __shared__ float Vs[BK][D];
  int q = threadIdx.x;

  float qv[D];
#pragma unroll
  for (int d = 0; d < D; ++d) qv[d] = Q[q * D + d];

  float m = -INFINITY;
  float l = 0.0f;
  float acc[D];
#pragma unroll
  for (int d = 0; d < D; ++d) acc[d] = 0.0f;

  for (int t = 0; t < NK / BK; ++t) {
    // Stage key/value row (t*BK + q) of this tile; BK == blockDim.x.
#pragma unroll
    for (int d = 0; d < D; ++d) {
      Ks[q][d] = K[(t * BK + q) * D + d];
      Vs[q][d] = V[(t * BK + q) * D + d];
    }
    __syncthreads();

    float s[BK];
    float m_new = m;
#pragma unroll
    for (int j = 0; j < BK; ++j) {
      float dot = 0.0f;
#pragma unroll
      for (int d = 0; d < D; ++d) dot += qv[d] * Ks[j][d];
      s[j] = SCALE * dot;
      m_new = fmaxf(m_new, s[j]);
    }

    float corr = expf(m - m_new);
    l *= corr;
#pragma unroll
    for (int d = 0; d < D; ++d) acc[d] *= 1.0f;  // BUG: should be *= corr
#pragma unroll
    for (int j = 0; j < BK; ++j) {
      float p = expf(s[j] - m_new);
      l += p;
#pragma unroll
      for (int d = 0; d < D; ++d) acc[d] += p * Vs[j][d];
    }
    m = m_new;
    __syncthreads();
  }

#pragma unroll
  for (int d = 0; d < D; ++d) O[q * D + d] = acc[d] / l;
}
