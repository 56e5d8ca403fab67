// gemm_wmma: C = A * B with tensor cores through the WMMA API, f16 inputs, f32 accumulation.
// A: 32 x 32, B: 32 x 32 row-major __half; C: 32 x 32 row-major float. Four warps; warp w owns
// the 16x16 output tile (w / 2, w % 2): fill the accumulator with 0, then for k = 0, 16:
// load_matrix_sync of the A tile (row_major, ld 32) and the B tile (row_major, ld 32) straight
// from global memory, mma_sync; finally store_matrix_sync (mem_row_major, ld 32).
//
// Launch: block (128, 1, 1), grid (1, 1, 1).
// Verifier: RACE_FREE; EQUIVALENT to gemm_naive_f16 (M = N = K = 32, block (32, 32, 1)) over the
// reals.
// PTX: wmma.load.a.sync.aligned.row.m16n16k16.global.f16 / wmma.load.b...row... (8 x .b32
// registers each, two f16 per register), wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32 (8 f32
// accumulators), wmma.store.d.sync.aligned.row.m16n16k16.global.f32.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

#define M 32
#define N 32
#define K 32

extern "C" __global__ void gemm_wmma(const __half* A, const __half* B, float* C) {
  int warp = threadIdx.x / 32;
  int tm = warp / 2, tn = warp % 2;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + tn * 16, N);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + tm * 16 * N + tn * 16, c, N, wmma::mem_row_major);
}
