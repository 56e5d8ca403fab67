// gemm_naive_f16: the f16-input reference GEMM for gemm_wmma and gemm_mma_sync:
// C[r][c] = sum_k float(A[r][k]) * float(B[k][c]), A: M x K and B: K x N row-major __half,
// C: M x N row-major float, f32 accumulation, one thread per output, one CTA covering all of C:
// thread (x, y) computes C[y][x]. M, N, K are integer kernel parameters (concrete in the
// manifests): M = N = K = 32 with block (32, 32, 1) against gemm_wmma, M = N = 16, K = 32 with
// block (16, 16, 1) against gemm_mma_sync.
//
// Launch: block (N, M, 1), grid (1, 1, 1).
// Verifier: RACE_FREE. Over the reals the f16 -> f32 conversions (cvt.f32.f16) are the identity.
#include <cuda_fp16.h>

extern "C" __global__ void gemm_naive_f16(const __half* A, const __half* B, float* C, int M, int N,
                                          int K) {
  int row = threadIdx.y;
  int col = threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += __half2float(A[row * K + k]) * __half2float(B[k * N + col]);
  C[row * N + col] = acc;
}
