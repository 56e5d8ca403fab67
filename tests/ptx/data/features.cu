// Exercises instruction families for the PTX front-end tests (compiled with nvcc -ptx).
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_pipeline.h>
#include <mma.h>
namespace cg = cooperative_groups;
using namespace nvcuda;

__global__ void tensor(const half* a, const half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

__global__ void async_copy(const float4* in, float4* out, int n) {
  __shared__ float4 tile[128];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[blockIdx.x * 128 + threadIdx.x], sizeof(float4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}

__global__ void warp_ops(const int* in, int* out, __half2* h, unsigned long long* clk) {
  int v = in[threadIdx.x];
  unsigned mask = __activemask();
  int sum = __reduce_add_sync(mask, v);
  unsigned same = __match_any_sync(mask, v);
  bool all = __all_sync(mask, v > 0);
  unsigned ballot = __ballot_sync(mask, v & 1);
  int up = __shfl_up_sync(mask, v, 1);
  out[threadIdx.x] = sum + same + all + ballot + up + __popc(v) + __clz(v) + __brev(v) + __ffs(v);
  atomicCAS(out, 0, v);
  atomicMax(out + 1, v);
  atomicExch(out + 2, v);
  h[threadIdx.x] = __hfma2(h[threadIdx.x], h[threadIdx.x], __float2half2_rn(1.5f));
  clk[threadIdx.x] = clock64();
  __threadfence();
  __nanosleep(100);
  if (v < 0) __trap();
}

__global__ void __cluster_dims__(2, 1, 1) clustered(float* out, const float2* in) {
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ float s[32];
  s[threadIdx.x] = threadIdx.x;
  cluster.sync();
  float* remote = cluster.map_shared_rank(s, (cluster.block_rank() + 1) % 2);
  __nv_fp8x2_e4m3 f8 = __nv_fp8x2_e4m3(in[threadIdx.x]);
  out[threadIdx.x] = remote[threadIdx.x] + float(__half2(__nv_cvt_fp8x2_to_halfraw2(f8.__x, __NV_E4M3)).x);
  cluster.sync();
}
