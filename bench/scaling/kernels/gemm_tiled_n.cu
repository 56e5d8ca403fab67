// gemm_tiled_n: the same product with 16 x 16 tiles of A and B staged in shared memory, two
// barriers per tile; n a multiple of 16, given as a kernel parameter.
// Launch: block (16, 16, 1), grid (n / 16, n / 16, 1).
#define T 16
extern "C" __global__ void gemm_tiled_n(const float* A, const float* B, float* C, int n) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty;
  int col = blockIdx.x * T + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += T) {
    As[ty][tx] = A[row * n + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
