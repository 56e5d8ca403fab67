// gemm_cp_async: gemm_tiled with the shared-memory tiles filled by asynchronous copies
// (Ampere cp.async) instead of ld.global + st.shared. C = A * B, row-major, M = N = K = 32,
// 16x16 tiles. Per tile step every thread:
//   cp.async.ca.shared.global [As + ...], [A + ...], 4;   (one float of the A tile)
//   cp.async.ca.shared.global [Bs + ...], [B + ...], 4;   (one float of the B tile)
//   cp.async.commit_group; cp.async.wait_group 0;          (its own copies have landed)
//   __syncthreads();                                       (everyone's copies are visible)
// then accumulates 16 products from shared memory and synchronizes again before the next step.
// Global addresses are converted with __cvta_generic_to_global (cvta.to.global.u64) and shared
// ones with __cvta_generic_to_shared (cvta.to.shared.u64 + cvt.u32.u64).
//
// Launch: block (16, 16, 1), grid (2, 2, 1), as gemm_naive.
// Verifier: RACE_FREE; EQUIVALENT to gemm_naive over the reals (CTA 0's C[0..15][0..15]).
#define M 32
#define N 32
#define K 32
#define TILE 16

__device__ __forceinline__ void cp_async_f32(float* smem_dst, const float* gmem_src) {
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem_dst));
  size_t src = __cvta_generic_to_global(gmem_src);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(src) : "memory");
}

extern "C" __global__ void gemm_cp_async(const float* A, const float* B, float* C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < K / TILE; ++t) {
    cp_async_f32(&As[ty][tx], &A[row * K + t * TILE + tx]);
    cp_async_f32(&Bs[ty][tx], &B[(t * TILE + ty) * N + col]);
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
    for (int kk = 0; kk < TILE; ++kk) acc += As[ty][kk] * Bs[kk][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
