// gemm_mma_bf16: C = A * B with raw tensor-core PTX, one warp, bf16 inputs, f32 accumulation.
// A: 16 x 32 and B: 32 x 16 row-major __nv_bfloat16; C: 16 x 16 row-major float.
//   1. The warp copies A and B into shared memory (16 halves per thread each), __syncthreads.
//   2. For each k step ks = 0, 1 (16 columns of A / rows of B):
//      ldmatrix.sync.aligned.m8n8.x4.shared.b16 gives the A fragment {a0..a3}: lane l supplies
//      the address of As[l % 16][16 ks + 8 (l / 16)], so the four 8x8 matrices are
//      (rows 0-7, cols 0-7), (rows 8-15, cols 0-7), (rows 0-7, cols 8-15), (rows 8-15, cols 8-15)
//      = exactly the m16n8k16 A registers (row g / g+8, cols 2t, 2t+1 / +8; g = l/4, t = l%4).
//      For each 8-column half nt = 0, 1 of C:
//        ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 gives {b0, b1}: lanes 0..15 supply
//        Bs[16 ks + l][8 nt] (rows k0..k0+15 of B); .trans hands lane l the pairs
//        (B[k0 + 2t][8nt + g], B[k0 + 2t + 1][8nt + g]) and the same 8 rows further, which is the
//        "col" B operand layout of m16n8k16.
//        mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {c}, {a0..a3}, {b0, b1}, {c}
//   3. Lane l stores its accumulators: c0, c1 -> C[g][8nt + 2t], C[g][8nt + 2t + 1];
//      c2, c3 -> C[g + 8][8nt + 2t], C[g + 8][8nt + 2t + 1] (every C element exactly once).
//
// Launch: block (32, 1, 1), grid (1, 1, 1).
// Verifier: RACE_FREE; EQUIVALENT to gemm_naive_bf16 (M = N = 16, K = 32, block (16, 16, 1)) over
// the reals.
#include <cuda_bf16.h>

#define M 16
#define N 16
#define K 32

extern "C" __global__ void gemm_mma_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C) {
  __shared__ __align__(16) __nv_bfloat16 As[M * K];
  __shared__ __align__(16) __nv_bfloat16 Bs[K * N];
  int lane = threadIdx.x;
  for (int i = lane; i < M * K; i += 32) As[i] = A[i];
  for (int i = lane; i < K * N; i += 32) Bs[i] = B[i];
  __syncthreads();

  float c[2][4] = {{0.0f, 0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 0.0f}};
#pragma unroll
  for (int ks = 0; ks < K / 16; ++ks) {
    unsigned a0, a1, a2, a3;
    unsigned a_addr = static_cast<unsigned>(
        __cvta_generic_to_shared(&As[(lane % 16) * K + ks * 16 + (lane / 16) * 8]));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
                 : "r"(a_addr));
#pragma unroll
    for (int nt = 0; nt < N / 8; ++nt) {
      unsigned b0, b1;
      unsigned b_addr = static_cast<unsigned>(
          __cvta_generic_to_shared(&Bs[(ks * 16 + lane % 16) * N + nt * 8]));
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                   : "=r"(b0), "=r"(b1)
                   : "r"(b_addr));
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
          "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
          : "+f"(c[nt][0]), "+f"(c[nt][1]), "+f"(c[nt][2]), "+f"(c[nt][3])
          : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
  }

  int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int nt = 0; nt < N / 8; ++nt) {
    C[g * N + nt * 8 + 2 * t] = c[nt][0];
    C[g * N + nt * 8 + 2 * t + 1] = c[nt][1];
    C[(g + 8) * N + nt * 8 + 2 * t] = c[nt][2];
    C[(g + 8) * N + nt * 8 + 2 * t + 1] = c[nt][3];
  }
}

// The naive reference: one thread per C element, bf16 widened to f32 (mov.b32 %f, {0, %h}).
extern "C" __global__ void gemm_naive_bf16(const __nv_bfloat16* A, const __nv_bfloat16* B, float* C) {
  int row = threadIdx.y;
  int col = threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += __bfloat162float(A[row * K + k]) * __bfloat162float(B[k * N + col]);
  C[row * N + col] = acc;
}
