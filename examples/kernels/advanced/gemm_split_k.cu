// gemm_split_k: C = A * B, row-major, M = N = K = 32, split-K over blockIdx.z: CTA (bx, by, bz)
// computes the partial sum over k in [16 bz, 16 bz + 16) of the 16x16 output tile (bx, by) and
// adds it into C with atomicAdd. C must be zero beforehand (cudaMemset), which the manifest
// states with array kind "zero".
//
// Launch: block (16, 16, 1), grid (2, 2, 2); every CTA must run (manifest `ctas: "all"`).
// Verifier: RACE_FREE (the two CTAs with the same (bx, by) update each C element only through
// atomics); EQUIVALENT to gemm_naive run with `ctas: "all"`: C[r][c] = 0 + partial_0 + partial_1
// = sum over all 32 k, in either order of arrival, over the reals. With CTA (0,0,0) alone C would
// hold only the first half-sum: NOT_EQUIVALENT.
// PTX: each thread ends with one `atom.global.add.f32` (result unused) on its C element.
#define M 32
#define N 32
#define K 32
#define TILE 16
#define SPLITS 2

extern "C" __global__ void gemm_split_k(const float* A, const float* B, float* C) {
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  int k0 = blockIdx.z * (K / SPLITS);
  float acc = 0.0f;
  for (int k = k0; k < k0 + K / SPLITS; ++k) acc += A[row * K + k] * B[k * N + col];
  atomicAdd(&C[row * N + col], acc);
}
