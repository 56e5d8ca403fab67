// volta-nvcc-flags: -arch=sm_90a
// Soundness suite, class 38-wgmma (our own kernels): one warpgroup (128 threads) multiplies a
// 64 x K f16 matrix A by a K x 16 f16 matrix B with wgmma.mma_async.m64n16k16.f32.f16.f16, A and
// B stored into shared memory in the layout their matrix descriptors name (swizzle none, 32B, 64B,
// 128B; K-major or MN-major), or A from registers; the references are naive loops. The traps: a
// descriptor whose swizzle or transpose flag does not match the stores, scale-d = 0 where the
// reference adds C, a missing fence.proxy.async, the accumulator read before wgmma.wait_group and
// an operand stored before it.
//
// The layouts (PTX ISA, "Shared Memory Matrix Layout"; CuTe's canonical GMMA layouts), in bytes
// from the descriptor's start address, then swizzled on the absolute shared address (the 16-byte
// chunk bits 4.. XOR the row bits 7..):
//   K-major  none : (mn/8) SBO + (mn%8) 16 + (k/8) LBO + (k%8) 2
//   K-major  W    : (mn/8) SBO + (mn%8) W  + (k/8) 16  + (k%8) 2
//   MN-major none : (mn/8) SBO + (mn%8) 2  + (k/8) LBO + (k%8) 16
//   MN-major W    : (mn/(W/2)) LBO + (mn%(W/2)) 2 + (k/8) SBO + (k%8) W
#include <cstdint>
#include <cuda_fp16.h>

namespace {

constexpr int kN = 16; // D is 64 x kN

// Swizzle modes as the descriptor's bits 62-63 encode them.
constexpr int kNone = 0, kB128 = 1, kB64 = 2, kB32 = 3;

__device__ uint32_t row_bytes(int mode) {
  return mode == kB128 ? 128 : mode == kB64 ? 64 : mode == kB32 ? 32 : 16;
}

__device__ uint32_t swizzle(int mode, uint32_t address) {
  const uint32_t bits = mode == kB128 ? 3 : mode == kB64 ? 2 : mode == kB32 ? 1 : 0;
  return address ^ (((address >> 7) & ((1u << bits) - 1)) << 4);
}

// The strides (LBO, SBO) our stores use for each layout, for a tile of K columns.
struct Strides {
  uint32_t lbo, sbo;
};
__device__ Strides strides(int mode, bool mn_major, int k_dim) {
  if (mode == kNone)
    return mn_major ? Strides{128, 128u * (k_dim / 8)} : Strides{128, 128u * (k_dim / 8)};
  const uint32_t w = row_bytes(mode);
  // MN-major: the next pattern along M/N after the tile's K rows.
  return mn_major ? Strides{8 * w * (k_dim / 8), 8 * w} : Strides{16, 8 * w};
}

__device__ uint32_t offset(int mode, bool mn_major, uint32_t mn, uint32_t k, Strides s) {
  const uint32_t w = row_bytes(mode);
  if (!mn_major)
    return (mn / 8) * s.sbo + (mn % 8) * w + (k / 8) * (mode == kNone ? s.lbo : 16) + (k % 8) * 2;
  if (mode == kNone)
    return (mn / 8) * s.sbo + (mn % 8) * 2 + (k / 8) * s.lbo + (k % 8) * 16;
  return (mn / (w / 2)) * s.lbo + (mn % (w / 2)) * 2 + (k / 8) * s.sbo + (k % 8) * w;
}

__device__ uint64_t descriptor(uint32_t address, Strides s, int mode) {
  return uint64_t((address & 0x3ffff) >> 4) | (uint64_t(s.lbo >> 4) << 16) |
         (uint64_t(s.sbo >> 4) << 32) | (uint64_t(mode) << 62);
}

__shared__ __align__(1024) uint8_t smem[16384]; // A at 0, B at 8192

// Stores element (mn, k) of a tile at its place in the layout.
__device__ void put(uint32_t tile, int mode, bool mn_major, uint32_t mn, uint32_t k, Strides s,
                    __half v) {
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  const uint32_t address = swizzle(mode, base + tile + offset(mode, mn_major, mn, k, s));
  *reinterpret_cast<__half*>(smem + (address - base)) = v;
}

template <int TransA, int TransB>
__device__ void mma_ss(float (&d)[8], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, %11, %12;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                 "+f"(d[7])
               : "l"(da), "l"(db), "r"(scale_d), "n"(TransA), "n"(TransB));
}

template <int TransB>
__device__ void mma_rs(float (&d)[8], const uint32_t (&a)[4], uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, 1, 1, %14;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                 "+f"(d[7])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d), "n"(TransB));
}

__device__ void fence_operands() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ void commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ void wait0() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
__device__ void proxy_fence() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// Thread t's accumulator value v is D[16 w + g + 8 ((v >> 1) & 1)][8 (v >> 2) + 2 q + (v & 1)].
__device__ void store_d(const float (&d)[8], float* out) {
  const uint32_t t = threadIdx.x, w = t / 32, g = (t % 32) / 4, q = t % 4;
  for (uint32_t v = 0; v < 8; ++v) {
    const uint32_t row = 16 * w + g + 8 * ((v >> 1) & 1), col = 8 * (v >> 2) + 2 * q + (v & 1);
    out[row * kN + col] = d[v];
  }
}

// The options of one wgmma kernel.
struct Form {
  int sw_a, sw_b;   // swizzle of the stores
  bool mn_a, mn_b;  // MN-major stores
  int desc_sw_b;    // the B descriptor's swizzle (-1: sw_b)
  int trans_b;      // the imm-trans-b given (-1: mn_b)
  bool a_regs;      // A from registers
  int k_dim;        // 16, or 32 (two chained wgmmas, the second at start + 32 bytes)
  bool with_c;      // D = A B + C (C in the registers first)
  int scale_d;      // the scale-d of the first wgmma
  bool proxy_fence; // fence.proxy.async after the stores
  bool read_early;  // store D before wgmma.wait_group
  bool store_after; // store to A's tile before wgmma.wait_group
};

template <int TransA, int TransB>
__device__ void run(const Form f, const __half* a, const __half* b, const float* c, float* out) {
  const uint32_t t = threadIdx.x;
  const Strides sa = strides(f.sw_a, f.mn_a, f.k_dim), sb = strides(f.sw_b, f.mn_b, f.k_dim);
  // Zeros first: a descriptor that misreads the tiles reads defined (wrong) bytes.
  for (uint32_t i = t; i < sizeof(smem) / 4; i += 128)
    reinterpret_cast<uint32_t*>(smem)[i] = 0;
  __syncthreads();
  if (!f.a_regs) {
    for (uint32_t i = t; i < 64u * f.k_dim; i += 128)
      put(0, f.sw_a, f.mn_a, i / f.k_dim, i % f.k_dim, sa, a[i]);
  }
  for (uint32_t i = t; i < uint32_t(f.k_dim) * kN; i += 128)
    put(8192, f.sw_b, f.mn_b, i % kN, i / kN, sb, b[i]);
  if (f.proxy_fence)
    proxy_fence();
  __syncthreads();
  float d[8];
  const uint32_t w = t / 32, g = (t % 32) / 4, q = t % 4;
  for (uint32_t v = 0; v < 8; ++v) {
    const uint32_t row = 16 * w + g + 8 * ((v >> 1) & 1), col = 8 * (v >> 2) + 2 * q + (v & 1);
    d[v] = f.with_c ? c[row * kN + col] : 0.f;
  }
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  const int desc_sw_b = f.desc_sw_b < 0 ? f.sw_b : f.desc_sw_b;
  fence_operands();
  for (int kb = 0; kb < f.k_dim / 16; ++kb) {
    const uint32_t step = 32 * kb; // the second k16 block: 32 bytes on within a swizzled row
    const uint64_t db = descriptor(base + 8192 + step, sb, desc_sw_b);
    const int scale_d = kb == 0 ? f.scale_d : 1;
    if (f.a_regs) {
      // Thread t's A value v is A[16 w + g + 8 ((v >> 1) & 1)][2 q + (v & 1) + 8 (v >> 2)].
      uint32_t regs[4];
      for (uint32_t r = 0; r < 4; ++r) {
        __half h[2];
        for (uint32_t e = 0; e < 2; ++e) {
          const uint32_t v = 2 * r + e;
          const uint32_t row = 16 * w + g + 8 * ((v >> 1) & 1), k = 2 * q + (v & 1) + 8 * (v >> 2);
          h[e] = a[row * f.k_dim + 16 * kb + k];
        }
        regs[r] = uint32_t(__half_as_ushort(h[0])) | uint32_t(__half_as_ushort(h[1])) << 16;
      }
      mma_rs<TransB>(d, regs, db, scale_d);
    } else {
      mma_ss<TransA, TransB>(d, descriptor(base + step, sa, f.sw_a), db, scale_d);
    }
  }
  commit();
  if (f.store_after && t == 0)
    smem[0] = 0;
  if (f.read_early)
    store_d(d, out);
  wait0();
  store_d(d, out);
}

template <int K, bool WithC>
__device__ void naive(const __half* a, const __half* b, const float* c, float* out) {
  for (int i = threadIdx.x; i < 64 * kN; i += blockDim.x) {
    const int m = i / kN, n = i % kN;
    float acc = WithC ? c[i] : 0.f;
    for (int k = 0; k < K; ++k)
      acc += __half2float(a[m * K + k]) * __half2float(b[k * kN + n]);
    out[i] = acc;
  }
}

// A positive form: K-major, both tiles fenced, D = A B.
__device__ Form plain(int sw) {
  return Form{sw, sw, false, false, -1, -1, false, 16, false, 0, true, false, false};
}

} // namespace

extern "C" __global__ void c38_naive_k16(const __half* a, const __half* b, float* out) {
  naive<16, false>(a, b, nullptr, out);
}
extern "C" __global__ void c38_naive_k32(const __half* a, const __half* b, float* out) {
  naive<32, false>(a, b, nullptr, out);
}
extern "C" __global__ void c38_naive_k16_c(const __half* a, const __half* b, const float* c,
                                           float* out) {
  naive<16, true>(a, b, c, out);
}

// EQUIVALENT: each swizzle mode, K-major.
extern "C" __global__ void c38_wgmma_sw128(const __half* a, const __half* b, float* out) {
  run<0, 0>(plain(kB128), a, b, nullptr, out);
}
extern "C" __global__ void c38_wgmma_sw64(const __half* a, const __half* b, float* out) {
  run<0, 0>(plain(kB64), a, b, nullptr, out);
}
extern "C" __global__ void c38_wgmma_sw32(const __half* a, const __half* b, float* out) {
  run<0, 0>(plain(kB32), a, b, nullptr, out);
}
extern "C" __global__ void c38_wgmma_interleave(const __half* a, const __half* b, float* out) {
  run<0, 0>(plain(kNone), a, b, nullptr, out);
}
// EQUIVALENT: B MN-major (imm-trans-b = 1), 128B and no swizzle; A MN-major 64B.
extern "C" __global__ void c38_wgmma_mn_major(const __half* a, const __half* b, float* out) {
  Form f = plain(kB128);
  f.mn_b = true;
  f.sw_a = kB64;
  f.mn_a = true;
  run<1, 1>(f, a, b, nullptr, out);
}
extern "C" __global__ void c38_wgmma_mn_major_interleave(const __half* a, const __half* b,
                                                         float* out) {
  Form f = plain(kNone);
  f.mn_b = true;
  run<0, 1>(f, a, b, nullptr, out);
}
// EQUIVALENT: K = 32 as two chained wgmmas (scale-d 0 then 1), the second's descriptors 32 bytes
// on in the 128B-swizzled rows (as CUTLASS advances along K).
extern "C" __global__ void c38_wgmma_chain_k32(const __half* a, const __half* b, float* out) {
  Form f = plain(kB128);
  f.k_dim = 32;
  run<0, 0>(f, a, b, nullptr, out);
}
// EQUIVALENT: A from registers (FlashAttention-3's P V), B 128B-swizzled.
extern "C" __global__ void c38_wgmma_a_registers(const __half* a, const __half* b, float* out) {
  Form f = plain(kB128);
  f.a_regs = true;
  run<0, 0>(f, a, b, nullptr, out);
}
// scale-d = 1 with C in the accumulator: EQUIVALENT to A B + C; scale-d = 0: NOT_EQUIVALENT.
extern "C" __global__ void c38_wgmma_scale_d1(const __half* a, const __half* b, const float* c,
                                              float* out) {
  Form f = plain(kB128);
  f.with_c = true;
  f.scale_d = 1;
  run<0, 0>(f, a, b, c, out);
}
extern "C" __global__ void c38_wgmma_scale_d0(const __half* a, const __half* b, const float* c,
                                              float* out) {
  Form f = plain(kB128);
  f.with_c = true;
  f.scale_d = 0;
  run<0, 0>(f, a, b, c, out);
}
// NOT_EQUIVALENT: stored with the 128B swizzle, B's descriptor says 64B.
extern "C" __global__ void c38_wgmma_swizzle_mismatch(const __half* a, const __half* b,
                                                      float* out) {
  Form f = plain(kB128);
  f.desc_sw_b = kB64;
  run<0, 0>(f, a, b, nullptr, out);
}
// NOT_EQUIVALENT: B stored K-major, imm-trans-b = 1 (MN-major).
extern "C" __global__ void c38_wgmma_trans_flipped(const __half* a, const __half* b, float* out) {
  run<0, 1>(plain(kB128), a, b, nullptr, out);
}
// Race checks: no fence.proxy.async between the stores and the wgmma; D stored before
// wgmma.wait_group; an operand byte stored before wgmma.wait_group.
extern "C" __global__ void c38_wgmma_no_proxy_fence(const __half* a, const __half* b, float* out) {
  Form f = plain(kB128);
  f.proxy_fence = false;
  run<0, 0>(f, a, b, nullptr, out);
}
extern "C" __global__ void c38_wgmma_read_before_wait(const __half* a, const __half* b,
                                                      float* out) {
  Form f = plain(kB128);
  f.read_early = true;
  run<0, 0>(f, a, b, nullptr, out);
}
extern "C" __global__ void c38_wgmma_store_before_wait(const __half* a, const __half* b,
                                                       float* out) {
  Form f = plain(kB128);
  f.store_after = true;
  run<0, 0>(f, a, b, nullptr, out);
}
