// gemm_relu: C = relu(A * B), row-major, M = N = K = 32, one thread per output (gemm_naive plus
// an fmaxf(acc, 0) epilogue). Base kernel of the clamp mutations (mutations/gemm_relu_*).
//
// Launch: block (16, 16, 1), grid (2, 2, 1), as gemm_naive.
// Verifier: RACE_FREE; EQUIVALENT to itself. nvcc emits `max.f32 acc, acc, 0f00000000`.
#define M 32
#define N 32
#define K 32
#define TILE 16

extern "C" __global__ void gemm_relu(const float* A, const float* B, float* C) {
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[row * K + k] * B[k * N + col];
  }
  C[row * N + col] = fmaxf(acc, 0.0f);
}
