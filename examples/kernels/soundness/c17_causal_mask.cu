// c17_causal_mask (17-masked-infinity): causal attention written two ways. The bounded kernel
// only visits the keys a query may see (k <= i); the masked one visits every key and gives a
// future key the score -INFINITY, the way users and FlashAttention-2 write it, so that
// fmaxf(m, -inf) = m and exp2f(-inf * c - m * c) = 0 drop it. Over the extended reals both are
// softmax over the visible keys: EQUIVALENT either way round (c17_causal_mask_inf,
// c17_causal_mask_inf_in_ref). Two one-token mutants of the masked kernel: `k > i + 1` lets one
// future key in (NOT_EQUIVALENT: c17_causal_mask_shifted), and `k >= i` masks the diagonal too,
// so row 0 sees no key at all and computes -inf - (-inf) (NOT_EQUIVALENT: undefined where the
// reference is defined, and every other row differs; c17_causal_mask_diag).
// Launch: 1 CTA of (4, 16) threads; thread (j, i) computes O[i][j]. Q, K, V, O: 16 x 4 f32,
// row-major. scale_log2 = 0.5 (a softmax scale already multiplied by log2 e).
#include <math.h>

#define N 16
#define D 4
#define SCALE_LOG2 0.5f

__device__ float score(const float* Q, const float* K, int i, int k) {
  float s = 0.0f;
  for (int c = 0; c < D; ++c)
    s += Q[i * D + c] * K[k * D + c];
  return s;
}

extern "C" __global__ void c17_causal_bounded(const float* Q, const float* K, const float* V,
                                              float* O) {
  const int i = threadIdx.y, j = threadIdx.x;
  float m = score(Q, K, i, 0);
  for (int k = 1; k <= i; ++k)
    m = fmaxf(m, score(Q, K, i, k));
  float l = 0.0f, acc = 0.0f;
  for (int k = 0; k <= i; ++k) {
    const float p = exp2f(score(Q, K, i, k) * SCALE_LOG2 - m * SCALE_LOG2);
    l += p;
    acc += p * V[k * D + j];
  }
  O[i * D + j] = acc / l;
}

// The masked kernels differ only in HIDDEN, the test that hides key k from query i.
#define MASKED_KERNEL(NAME, HIDDEN)                                                                \
  extern "C" __global__ void NAME(const float* Q, const float* K, const float* V, float* O) {      \
    const int i = threadIdx.y, j = threadIdx.x;                                                    \
    float m = -INFINITY;                                                                           \
    for (int k = 0; k < N; ++k)                                                                    \
      m = fmaxf(m, (HIDDEN) ? -INFINITY : score(Q, K, i, k));                                      \
    float l = 0.0f, acc = 0.0f;                                                                    \
    for (int k = 0; k < N; ++k) {                                                                  \
      const float s = (HIDDEN) ? -INFINITY : score(Q, K, i, k);                                    \
      const float p = exp2f(s * SCALE_LOG2 - m * SCALE_LOG2);                                      \
      l += p;                                                                                      \
      acc += p * V[k * D + j];                                                                     \
    }                                                                                              \
    O[i * D + j] = acc / l;                                                                        \
  }

MASKED_KERNEL(c17_causal_masked, k > i)
MASKED_KERNEL(c17_causal_masked_shifted, k > i + 1) // one future key visible
MASKED_KERNEL(c17_causal_masked_diag, k >= i)       // the diagonal hidden too: row 0 sees nothing
