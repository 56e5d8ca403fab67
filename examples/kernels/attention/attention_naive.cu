// attention_naive: O = softmax(scale * Q K^T) V for one head, Q: 16 x 16, K, V: 64 x 16,
// scale = 1/sqrt(16) = 0.25 (exact), one thread per query row.
//   s_j = scale * <Q[q], K[j]>, kept in the thread's own row of shared memory S[q][*]
//   m = max_j s_j; p_j = expf(s_j - m); l = sum_j p_j
//   O[q][d] = (sum_j p_j * V[j][d]) / l
// Accurate expf (no fast math). Each thread touches only its own row of S, so no barrier is
// needed (S is shared memory only to keep the 64 scores out of local memory).
//
// Launch: block (16, 1, 1), grid (1, 1, 1).
// Verifier: RACE_FREE; EQUIVALENT to flash_attention over the reals.
#define NQ 16
#define NK 64
#define D 16
#define SCALE 0.25f

extern "C" __global__ void attention_naive(const float* Q, const float* K, const float* V,
                                           float* O) {
  __shared__ float S[NQ][NK];
  int q = threadIdx.x;

  float m = -INFINITY;
  for (int j = 0; j < NK; ++j) {
    float dot = 0.0f;
    for (int d = 0; d < D; ++d) dot += Q[q * D + d] * K[j * D + d];
    float s = SCALE * dot;
    S[q][j] = s;
    m = fmaxf(m, s);
  }

  float l = 0.0f;
  for (int j = 0; j < NK; ++j) {
    float p = expf(S[q][j] - m);
    S[q][j] = p;
    l += p;
  }

  for (int d = 0; d < D; ++d) {
    float acc = 0.0f;
    for (int j = 0; j < NK; ++j) acc += S[q][j] * V[j * D + d];
    O[q * D + d] = acc / l;
  }
}
