// attention_naive_rows: O = softmax(scale * Q K^T) V for one head of sequence length l (a kernel
// parameter) and head dimension 16, one query row per thread, plain loops over the keys read
// straight from global memory: the row maximum first, then the exponentials of the scores minus
// that maximum, their sum and the weighted sum of V, divided at the end.
// Accurate expf (no fast math). scale = 0.25 = 1/sqrt(16).
// Launch: block (32, 1, 1), grid (l / 32, 1, 1).
#define D 16
#define SCALE 0.25f
extern "C" __global__ void attention_naive_rows(const float* Q, const float* K, const float* V,
                                                float* O, int l) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  float m = -INFINITY;
  for (int j = 0; j < l; ++j) {
    float dot = 0.0f;
    for (int d = 0; d < D; ++d) dot += Q[q * D + d] * K[j * D + d];
    m = fmaxf(m, SCALE * dot);
  }
  float sum = 0.0f;
  float acc[D];
  for (int d = 0; d < D; ++d) acc[d] = 0.0f;
  for (int j = 0; j < l; ++j) {
    float dot = 0.0f;
    for (int d = 0; d < D; ++d) dot += Q[q * D + d] * K[j * D + d];
    float p = expf(SCALE * dot - m);
    sum += p;
    for (int d = 0; d < D; ++d) acc[d] += p * V[j * D + d];
  }
  for (int d = 0; d < D; ++d) O[q * D + d] = acc[d] / sum;
}
