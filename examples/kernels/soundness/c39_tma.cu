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
// The traps: an expect_tx byte count that is not the box's (the phase never completes: DEADLOCK),
// the tile read before the mbarrier wait (DATA_RACE), the unswizzled read-back (NOT_EQUIVALENT).
#include <cstdint>

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
extern "C" __global__ void c39_tma_swizzled_copy_unswizzled_read(
    const __grid_constant__ TensorMap map, float* out) {
  swizzled_copy(&map, out, false);
}
