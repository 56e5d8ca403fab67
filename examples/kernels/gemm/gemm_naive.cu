// gemm_naive: C = A * B, row-major, M = N = K = 32, one thread per output element.
//
// Launch: block (16, 16, 1), grid (2, 2, 1); thread (tx, ty) of CTA (bx, by) computes
// C[row][col] with row = 16*by + ty, col = 16*bx + tx, as a K-step fma chain starting from 0.
// Reference for gemm_tiled, gemm_wrong, the GEMM mutations, gemm_cp_async and gemm_split_k.
// Verifier: race-free (every thread writes its own C element, reads only inputs).
#define M 32
#define N 32
#define K 32
#define TILE 16

extern "C" __global__ void gemm_naive(const float* A, const float* B, float* C) {
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[row * K + k] * B[k * N + col];
  }
  C[row * N + col] = acc;
}
