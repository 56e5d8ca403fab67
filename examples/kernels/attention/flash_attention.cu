// flash_attention: the same attention as attention_naive (Q: 16 x 16, K, V: 64 x 16,
// scale 0.25), FlashAttention style: the 64 keys are processed in 4 tiles of 16. Each tile of K
// and V is staged in shared memory by the 16 threads together (thread t copies key row t of the
// tile), __syncthreads, then each thread (one per query row) updates its online softmax state:
//   s_j   = scale * <q, Ks[j]>                      (j in the tile, registers)
//   m_new = max(m, max_j s_j)
//   corr  = expf(m - m_new)                          (0 on the first tile: m = -INFINITY)
//   l     = l * corr + sum_j expf(s_j - m_new)
//   acc   = acc * corr + sum_j expf(s_j - m_new) * Vs[j]
// and a second __syncthreads before the next tile overwrites Ks/Vs. Finally O[q] = acc / l.
// Accurate expf (no fast math).
//
// Launch: block (16, 1, 1), grid (1, 1, 1).
// Verifier: RACE_FREE; EQUIVALENT to attention_naive over the reals (after the last tile
// m = max of all scores, l = sum_j exp(s_j - m), acc = sum_j exp(s_j - m) V[j]).
#define NQ 16
#define NK 64
#define D 16
#define BK 16
#define SCALE 0.25f

extern "C" __global__ void flash_attention(const float* Q, const float* K, const float* V,
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
    for (int d = 0; d < D; ++d) acc[d] *= corr;
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
