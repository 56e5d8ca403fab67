// gemm_drop_last_k — mutation of gemm/gemm_naive (dropped term): the k loop stops at K-1, so
// every C[row][col] misses A[row][31] * B[31][col].
// Launch: block (16, 16, 1), grid (2, 2, 1), as the base.
// Verifier: NOT_EQUIVALENT to gemm_naive on every element of CTA 0's footprint.
#define M 32
#define N 32
#define K 32
#define TILE 16

extern "C" __global__ void gemm_drop_last_k(const float* A, const float* B, float* C) {
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K - 1; ++k) {  // BUG: K - 1
    acc += A[row * K + k] * B[k * N + col];
  }
  C[row * N + col] = acc;
}
