// attention_scale_perturbed — mutation of attention/attention_naive (perturbed constant): the
// softmax scale is 0.26 instead of 1/sqrt(16) = 0.25.
// Launch: block (16, 1, 1), grid (1, 1, 1), as the base.
// Verifier: NOT_EQUIVALENT to attention_naive (softmax(0.26 s) != softmax(0.25 s) unless all
// scores of a row are equal).
#define NQ 16
#define NK 64
#define D 16
#define SCALE 0.26f  // BUG: 0.25f

extern "C" __global__ void attention_scale_perturbed(const float* Q, const float* K, const float* V,
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
