// gemm_relu_no_clamp — mutation of gemm/gemm_relu (missing clamp): the fmaxf(acc, 0) epilogue is
// gone, negative sums are stored as they are.
// Launch: block (16, 16, 1), grid (2, 2, 1), as the base.
// Verifier: NOT_EQUIVALENT to gemm_relu (any input with a negative dot product).
#define M 32
#define N 32
#define K 32
#define TILE 16

extern "C" __global__ void gemm_relu_no_clamp(const float* A, const float* B, float* C) {
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[row * K + k] * B[k * N + col];
  }
  C[row * N + col] = acc;  // BUG: no relu
}
