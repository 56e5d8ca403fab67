// The layouts of wgmma.mma_async (PTX ISA 9.7.15, "Asynchronous Warpgroup Level Matrix
// Multiply-Accumulate"): the 64-bit shared-memory matrix descriptor, which shared-memory byte each
// element of A or B comes from (per swizzle mode and major-ness), which register of which thread
// holds which element of D and of A (A from registers). ONE definition used by both CTA machines
// (the symbolic engine, exec_warpgroup_mma.cpp, and the emulator, emulate/warpgroup_mma.cpp), so
// that they cannot disagree; tests/exec/warpgroup_mma_layout_test.cpp checks it against the ISA's
// worked figures.
//
// Only the 16-bit input types (f16, bf16: K = 16) are described here; the other wgmma types are
// refused by both machines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace volta::exec::wgmma {

// Descriptor bits 62-63 ("Matrix Descriptor Format"): 0 none (interleave), 1 128B, 2 64B, 3 32B.
enum class Swizzle : uint8_t { None, B128, B64, B32 };

struct MatrixDescriptor {
  uint32_t start = 0;       // byte address in the shared window (bits 0-13, << 4)
  uint32_t leading = 0;     // leading dimension byte offset (bits 16-29, << 4)
  uint32_t stride = 0;      // stride dimension byte offset (bits 32-45, << 4)
  uint32_t base_offset = 0; // matrix base offset (bits 49-51)
  Swizzle swizzle = Swizzle::None;
};

MatrixDescriptor decode_descriptor(uint64_t bits);

// Bytes of one row of the swizzle pattern: 16 (none), 32, 64, 128.
uint32_t swizzle_row_bytes(Swizzle s);

// The swizzle as the hardware applies it, to the absolute shared-memory byte address: bits 4..
// (16-byte chunk within a row of the pattern) XOR bits 7.. (row within the 8-row pattern), as many
// bits as the mode has (0 none, 1 32B, 2 64B, 3 128B). CuTe writes it Swizzle<B,4,3> o smem_ptr.
uint64_t swizzle_address(Swizzle s, uint64_t address);

// Element (mn, k) of a 16-bit operand tile read through descriptor d: mn is the row of A (0..63)
// or the column of B (0..N-1), k the reduction index (0..15). `mn_major`: the transpose flag of
// the operand (imm-trans-a / imm-trans-b = 1), the tile contiguous along M (N); else contiguous
// along K. Gives the shared-memory byte address of the element's 2 bytes (the canonical layouts
// of the ISA's "Shared Memory Matrix Layout", in CuTe's notation, T = 8 elements per 16 bytes):
//   K-major,  none : ((8,m),(T,2)) : ((16B, SBO), (2B, LBO))
//   K-major,  W-byte swizzle: ((8,m),(T,2)) : ((W, SBO), (2B, 16B))
//   MN-major, none : ((T,m),(8,k)) : ((2B, SBO), (16B, LBO))
//   MN-major, W-byte swizzle: ((T,W/16,m),(8,k)) : ((2B, 16B, LBO), (W, SBO))
// then swizzle_address.
uint64_t operand_address(const MatrixDescriptor& d, bool mn_major, uint32_t mn, uint32_t k);

// Why a descriptor is outside what operand_address models (the matrix base offset, used only for
// a swizzled tile whose start is not on the pattern's repeat), or nullopt.
std::optional<std::string> unsupported_descriptor(const MatrixDescriptor& d);

struct Element {
  uint32_t row;
  uint32_t col;
};

// The accumulator D (m64nN, f32): value v (0 .. N/2-1) of thread t (0..127 within the warpgroup)
// is D[16 w + g + 8 ((v >> 1) & 1)][8 (v >> 2) + 2 q + (v & 1)], w = t / 32 the warp, g = lane / 4,
// q = lane % 4 (ISA "Register Fragments": the m16n8 accumulator of mma, repeated along N, each
// warp owning rows 16w..16w+15). With an f16 accumulator register r packs values 2r (low half)
// and 2r + 1.
Element accumulator_element(uint32_t t, uint32_t v);

// A from registers (m64k16, 16-bit): value v (0..7) of thread t, register v / 2, half v % 2, is
// A[16 w + g + 8 ((v >> 1) & 1)][2 q + (v & 1) + 8 (v >> 2)] (mma.m16n8k16's A fragment, each warp
// owning rows 16w..16w+15).
Element a_register_element(uint32_t t, uint32_t v);

} // namespace volta::exec::wgmma
