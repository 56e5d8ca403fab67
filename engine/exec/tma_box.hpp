// The box of a tiled TMA copy (`cp.async.bulk.tensor.Nd...tile`): which global element each
// shared-memory byte of the box comes from (a load) or goes to (a store), with the tensor map's
// bounds, traversal strides and shared-memory swizzle. One definition for both CTA machines
// (the symbolic engine and the emulator), so that the two cannot lay a box out differently.
//
// The meaning, from cuda.h's documentation of cuTensorMapEncodeTiled and the PTX ISA ("Tensor",
// "Tiled mode", "Bounding box", "Traversal stride", "Out of bound access", "Swizzling modes"):
// - The box starts at the instruction's coordinates (signed 32-bit, innermost first) and covers
//   boxDim[i] elements along dimension i, of which it visits every elementStrides[i]-th: it
//   holds ceil(boxDim[i] / elementStrides[i]) elements along dimension i. elementStrides[0] is
//   ignored without interleave (TMA has no stride along dimension zero).
// - In shared memory the box is dense, dimension 0 innermost, then swizzled: with a swizzle of
//   span S (32, 64 or 128 bytes) the index of a 16-byte chunk within its S-byte span (address
//   bits 4 .. 4+b-1, b = log2(S/16)) is XORed with address bits 7 .. 7+b-1 (for 128B: the
//   128-byte row's index modulo 8), CuTe's Swizzle<b, 4, 3> on byte addresses. The pattern is a
//   function of the shared-memory address itself, so it repeats every 2^(7+b) bytes (256, 512,
//   1024) and a box that does not start at such a boundary is swizzled by its address, not by
//   its offset (the wgmma descriptor's base offset exists for that case).
// - An element whose coordinate lies outside [0, globalDim[i]) along some dimension is out of
//   bounds: a load fills it with zero (or a NaN with
//   CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA), a store skips it. The transaction count of
//   a load is the whole box's bytes, filled or not.
//
// What is not modelled is refused with a reason (the caller reports it at the instruction):
// interleaved layouts, the 128B_ATOM swizzles, the packed sub-byte types, and a swizzled box whose
// inner dimension is narrower than the swizzle span (cuda.h allows it; its layout is not
// documented).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "engine/launch/tensor_map.hpp"

namespace volta::exec {

// One element of a box.
struct TmaBoxElement {
  uint64_t shared_address = 0;           // where the element lies in shared memory (swizzled)
  std::optional<uint64_t> global_offset; // its byte offset from the map's global address; none:
                                         // out of bounds (zero or NaN filled, or not stored)
};

struct TmaBox {
  uint32_t element_bytes = 0;
  uint64_t bytes = 0;                  // of the box in shared memory (a load's transaction count)
  bool nan_fill = false;               // out-of-bounds elements of a load are NaN, not zero
  std::vector<TmaBoxElement> elements; // in box order (dimension 0 innermost)
};

// The box that `coords` (one per dimension of the map; fewer or more is the caller's error)
// selects, placed at shared-memory address `shared_address` (which the PTX ISA requires to be
// 128-byte aligned: the caller reports a misaligned one as such); or why it is not modelled.
std::variant<TmaBox, std::string> tma_box(const launch::TensorMap& map,
                                          std::span<const int32_t> coords, uint64_t shared_address);

// The swizzled address of byte `address` under CUtensorMapSwizzle `swizzle` (NONE, 32B, 64B or
// 128B; others are refused by tma_box before this is asked).
uint64_t tma_swizzle(uint32_t swizzle, uint64_t address);

} // namespace volta::exec
