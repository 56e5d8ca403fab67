// volta-nvcc-flags: -arch=sm_90a
// Soundness suite, class 39-tma (our own kernels): TMA tile loads (cp.async.bulk.tensor.2d ...
// .mbarrier::complete_tx::bytes) of a tensor map passed as a __grid_constant__ parameter (the
// manifest gives it by its cuTensorMapEncodeTiled arguments), completed through an mbarrier's
// transaction count, against naive loops over the global array.
//
// A is kH x kW f32 (rows kW floats apart: 112 bytes, a multiple of 16 as TMA needs); a 2 x 2 grid
// of CTAs loads its 16 x 16 box each, so that the boxes of the last column and row stick out of A
// and TMA fills those elements with zeros; each thread writes one element of the transposed,
// zero-padded 32 x 32 output. The swizzle kernels copy an 8 x 32 f32 box loaded under the
// 128-byte swizzle: read back through the swizzle (EQUIVALENT) or as if unswizzled (NOT).
//
// The wgmma kernels load a 64 x 16 f16 A (K-major) and a 16 x 16 f16 B (N contiguous: MN-major)
// with TMA under the 32-byte swizzle, the layouts the wgmma descriptors name, and multiply them
// with wgmma.mma_async.m64n16k16 after the mbarrier wait and no fence.proxy.async (TMA writes
// through the async proxy, as the wgmma reads): the naive 64 x 16 x 16 product.
//
// The traps: an expect_tx byte count that is not the box's (the phase never completes: DEADLOCK),
// the tile read before the mbarrier wait (DATA_RACE), the unswizzled read-back (NOT_EQUIVALENT).
#include <cstdint>
#include <cuda_fp16.h>

namespace {

constexpr int kTile = 16;       // the transpose's box: kTile x kTile f32
constexpr int kW = 28, kH = 20; // A's columns and rows
constexpr int kOut = 2 * kTile; // the output is kOut x kOut
constexpr uint32_t kBoxBytes = kTile * kTile * 4;
constexpr int kSwW = 32, kSwH = 8; // the swizzled copy's box (128-byte rows)

// A CUtensorMap's 128 opaque bytes (cuda.h's type, without the header).
struct alignas(64) TensorMap {
  unsigned char bytes[128];
};

__device__ uint32_t smem(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ void arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
}

__device__ void tma_load_2d(uint32_t dst, const TensorMap* map, int x, int y, uint32_t bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
               "[%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
               : "memory");
}

// CUTLASS's wait loop (ClusterBarrier::wait).
__device__ void wait_parity(uint32_t bar, uint32_t parity) {
  asm volatile("{\n"
               ".reg .pred P1;\n"
               "LAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra DONE;\n"
               "bra LAB_WAIT;\n"
               "DONE:\n"
               "}" ::"r"(bar),
               "r"(parity)
               : "memory");
}

// Thread 0 inits the barrier; after the CTA barrier it arrives expecting `tx` bytes and issues
// the load of the box at (x, y) into `tile`.
__device__ void load_box(const TensorMap* map, float* tile, uint64_t* bar, int x, int y,
                         uint32_t tx) {
  if (threadIdx.x == 0)
    mbar_init(smem(bar), 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    arrive_expect_tx(smem(bar), tx);
    tma_load_2d(smem(tile), map, x, y, smem(bar));
  }
}

__device__ void tma_transpose(const TensorMap* map, float* out, uint32_t tx) {
  __shared__ alignas(1024) float tile[kTile * kTile];
  __shared__ alignas(8) uint64_t bar;
  load_box(map, tile, &bar, blockIdx.x * kTile, blockIdx.y * kTile, tx);
  wait_parity(smem(&bar), 0);
  const int x = threadIdx.x % kTile, y = threadIdx.x / kTile;
  out[(blockIdx.x * kTile + x) * kOut + blockIdx.y * kTile + y] = tile[y * kTile + x];
}

} // namespace

// out[gx][gy] = A[gy][gx] inside A, 0 outside.
extern "C" __global__ void c39_naive_transpose(const float* a, float* out) {
  const int gx = blockIdx.x * kTile + threadIdx.x % kTile;
  const int gy = blockIdx.y * kTile + threadIdx.x / kTile;
  out[gx * kOut + gy] = gx < kW && gy < kH ? a[gy * kW + gx] : 0.0f;
}

extern "C" __global__ void c39_tma_transpose(const __grid_constant__ TensorMap map, float* out) {
  tma_transpose(&map, out, kBoxBytes);
}

// expect_tx 64 bytes short of the box: the complete_tx overshoots, the phase never completes.
extern "C" __global__ void c39_tma_transpose_short_tx(const __grid_constant__ TensorMap map,
                                                      float* out) {
  tma_transpose(&map, out, kBoxBytes - 64);
}

// expect_tx 64 bytes beyond the box: the phase waits for bytes that never come.
extern "C" __global__ void c39_tma_transpose_long_tx(const __grid_constant__ TensorMap map,
                                                     float* out) {
  tma_transpose(&map, out, kBoxBytes + 64);
}

// Every thread reads its element before the wait (and stores it after): the copy may still be
// landing.
extern "C" __global__ void c39_tma_read_before_wait(const __grid_constant__ TensorMap map,
                                                    float* out) {
  __shared__ alignas(1024) float tile[kTile * kTile];
  __shared__ alignas(8) uint64_t bar;
  load_box(&map, tile, &bar, blockIdx.x * kTile, blockIdx.y * kTile, kBoxBytes);
  const int x = threadIdx.x % kTile, y = threadIdx.x / kTile;
  const float v = tile[y * kTile + x];
  wait_parity(smem(&bar), 0);
  out[(blockIdx.x * kTile + x) * kOut + blockIdx.y * kTile + y] = v;
}

// The mbarrier wait replaced by __syncthreads(): the copy may land after the barrier.
extern "C" __global__ void c39_tma_barrier_instead_of_wait(const __grid_constant__ TensorMap map,
                                                           float* out) {
  __shared__ alignas(1024) float tile[kTile * kTile];
  __shared__ alignas(8) uint64_t bar;
  load_box(&map, tile, &bar, blockIdx.x * kTile, blockIdx.y * kTile, kBoxBytes);
  __syncthreads();
  const int x = threadIdx.x % kTile, y = threadIdx.x / kTile;
  out[(blockIdx.x * kTile + x) * kOut + blockIdx.y * kTile + y] = tile[y * kTile + x];
}

// out[i] = a[i], one element per thread (256 threads: 8 rows of 32).
extern "C" __global__ void c39_naive_copy(const float* a, float* out) {
  out[threadIdx.x] = a[threadIdx.x];
}

__device__ void swizzled_copy(const TensorMap* map, float* out, bool through_swizzle) {
  __shared__ alignas(1024) float tile[kSwW * kSwH];
  __shared__ alignas(8) uint64_t bar;
  load_box(map, tile, &bar, 0, 0, kSwW * kSwH * 4);
  wait_parity(smem(&bar), 0);
  // Element i of the box lies at byte 4i of the tile, its 16-byte chunk index XORed with the
  // row (128-byte swizzle on the shared address; the tile is 1024-byte aligned).
  uint32_t byte = 4 * threadIdx.x;
  if (through_swizzle)
    byte ^= ((byte >> 7) & 7) << 4;
  out[threadIdx.x] = tile[byte / 4];
}

extern "C" __global__ void c39_tma_swizzled_copy(const __grid_constant__ TensorMap map,
                                                 float* out) {
  swizzled_copy(&map, out, true);
}

// The same box read back as if it were not swizzled.
extern "C" __global__ void
c39_tma_swizzled_copy_unswizzled_read(const __grid_constant__ TensorMap map, float* out) {
  swizzled_copy(&map, out, false);
}

namespace {

// wgmma m64n16k16, A and B from descriptors (K-major A, B with imm-trans-b 1: MN-major).
__device__ void mma_ss_tb(float (&d)[8], uint64_t da, uint64_t db) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 0, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 1;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                 "+f"(d[7])
               : "l"(da), "l"(db));
}

// A descriptor of the 32-byte swizzle (mode 3) with byte strides lbo and sbo.
__device__ uint64_t descriptor32(uint32_t address, uint32_t lbo, uint32_t sbo) {
  return uint64_t((address & 0x3ffff) >> 4) | (uint64_t(lbo >> 4) << 16) |
         (uint64_t(sbo >> 4) << 32) | (uint64_t(3) << 62);
}

} // namespace

// out = A B, A 64 x 16 and B 16 x 16 row-major f16, out 64 x 16 f32.
extern "C" __global__ void c39_naive_mm(const __half* a, const __half* b, float* out) {
  for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) {
    const int m = i / 16, n = i % 16;
    float acc = 0.f;
    for (int k = 0; k < 16; ++k)
      acc += __half2float(a[m * 16 + k]) * __half2float(b[k * 16 + n]);
    out[i] = acc;
  }
}

// A's box {16 (k), 64 (m)} lands at m*32 + k*2 (swizzled): K-major, SBO 256. B's box
// {16 (n), 16 (k)} lands at k*32 + n*2: MN-major, SBO 256 between k groups of 8.
extern "C" __global__ void c39_tma_wgmma(const __grid_constant__ TensorMap map_a,
                                         const __grid_constant__ TensorMap map_b, float* out) {
  __shared__ alignas(1024) __half tile_a[64 * 16];
  __shared__ alignas(1024) __half tile_b[16 * 16];
  __shared__ alignas(8) uint64_t bar;
  const uint32_t t = threadIdx.x;
  if (t == 0)
    mbar_init(smem(&bar), 1);
  __syncthreads();
  if (t == 0) {
    arrive_expect_tx(smem(&bar), sizeof(tile_a) + sizeof(tile_b));
    tma_load_2d(smem(tile_a), &map_a, 0, 0, smem(&bar));
    tma_load_2d(smem(tile_b), &map_b, 0, 0, smem(&bar));
  }
  wait_parity(smem(&bar), 0);
  float d[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  mma_ss_tb(d, descriptor32(smem(tile_a), 16, 256), descriptor32(smem(tile_b), 512, 256));
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  // Thread t's accumulator value v is D[16 w + g + 8 ((v >> 1) & 1)][8 (v >> 2) + 2 q + (v & 1)].
  const uint32_t w = t / 32, g = (t % 32) / 4, q = t % 4;
  for (uint32_t v = 0; v < 8; ++v) {
    const uint32_t row = 16 * w + g + 8 * ((v >> 1) & 1), col = 8 * (v >> 2) + 2 * q + (v & 1);
    out[row * 16 + col] = d[v];
  }
}
