// gemm_naive_n: C = A * B for n x n row-major matrices, one thread per element of C, the size
// n a kernel parameter so one PTX serves every size of the scaling benchmark.
// Launch: block (16, 16, 1), grid (n / 16, n / 16, 1).
extern "C" __global__ void gemm_naive_n(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}
