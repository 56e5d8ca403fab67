// gemm_wrong: gemm_naive with a bug: the last column of C (col == N-1) skips the last k term.
//
// Launch: block (16, 16, 1), grid (2, 2, 1), as gemm_naive.
// Verifier: NOT_EQUIVALENT to gemm_naive, with a counterexample on some C[row][31] (e.g. all
// inputs 1: 31 instead of 32). Column 31 belongs to CTAs with blockIdx.x == 1, so the bug is only
// visible when every CTA is executed (manifest `ctas: "all"`); with CTA (0,0,0) alone the two
// kernels agree on C[0..15][0..15].
#define M 32
#define N 32
#define K 32
#define TILE 16

extern "C" __global__ void gemm_wrong(const float* A, const float* B, float* C) {
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  int kend = (col == N - 1) ? K - 1 : K;  // BUG: drops A[row][K-1] * B[K-1][N-1]
  float acc = 0.0f;
  for (int k = 0; k < kend; ++k) {
    acc += A[row * K + k] * B[k * N + col];
  }
  C[row * N + col] = acc;
}
