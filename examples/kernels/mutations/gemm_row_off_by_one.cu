// gemm_row_off_by_one — mutation of gemm/gemm_naive (off-by-one index): A is read from row
// row + 1, so C[row][col] gets the value of the reference's C[row + 1][col].
// Launch: block (16, 16, 1), grid (2, 2, 1), as the base.
// Verifier: NOT_EQUIVALENT to gemm_naive. Run with CTA (0,0,0) only (the default): its rows
// 0..15 read A rows 1..16, all in bounds. (With `ctas: "all"` the CTAs of rows 16..31 would read
// A row 32, one past the end, and the verdict would be OUT_OF_BOUNDS instead.)
#define M 32
#define N 32
#define K 32
#define TILE 16

extern "C" __global__ void gemm_row_off_by_one(const float* A, const float* B, float* C) {
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    acc += A[(row + 1) * K + k] * B[k * N + col];  // BUG: row + 1
  }
  C[row * N + col] = acc;
}
