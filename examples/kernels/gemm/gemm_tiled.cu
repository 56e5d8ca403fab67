// gemm_tiled: C = A * B, row-major, M = N = K = 32, 16x16 shared-memory tiles.
//
// Launch: block (16, 16, 1), grid (2, 2, 1), same output mapping as gemm_naive. For each of the
// K/16 = 2 tile steps every thread stages one element of the A tile and one of the B tile,
// __syncthreads, accumulates 16 products from shared memory, __syncthreads again (so that the
// next step's stores cannot overwrite a tile another thread is still reading).
// Verifier: RACE_FREE, and EQUIVALENT to gemm_naive over the reals. (nvcc even emits the same
// 32-step fma chain in the same k order, fully unrolled, operands read from shared memory.)
#define M 32
#define N 32
#define K 32
#define TILE 16

extern "C" __global__ void gemm_tiled(const float* A, const float* B, float* C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < K / TILE; ++t) {
    As[ty][tx] = A[row * K + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * N + col];
    __syncthreads();
    for (int kk = 0; kk < TILE; ++kk) {
      acc += As[ty][kk] * Bs[kk][tx];
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}
