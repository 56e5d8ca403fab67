// gemm_relu_min — mutation of gemm/gemm_relu (max vs min): the epilogue is fminf(acc, 0).
// Launch: block (16, 16, 1), grid (2, 2, 1), as the base.
// Verifier: NOT_EQUIVALENT to gemm_relu (they agree only where the dot product is 0).
#define M 32
#define N 32
#define K 32
#define TILE 16

extern "C" __global__ void gemm_relu_min(const float* A, const float* B, float* C) {
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[row * K + k] * B[k * N + col];
  }
  C[row * N + col] = fminf(acc, 0.0f);  // BUG: min
}
