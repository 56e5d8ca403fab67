#include "engine/exec/warpgroup_mma_layout.hpp"

#include <cassert>

namespace volta::exec::wgmma {

MatrixDescriptor decode_descriptor(uint64_t bits) {
  MatrixDescriptor d;
  d.start = static_cast<uint32_t>(bits & 0x3fff) << 4;
  d.leading = static_cast<uint32_t>((bits >> 16) & 0x3fff) << 4;
  d.stride = static_cast<uint32_t>((bits >> 32) & 0x3fff) << 4;
  d.base_offset = static_cast<uint32_t>((bits >> 49) & 0x7);
  d.swizzle = static_cast<Swizzle>((bits >> 62) & 0x3);
  return d;
}

namespace {

// The number of address bits the swizzle XORs (CuTe's B of Swizzle<B,4,3>).
uint32_t swizzle_bits(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return 0;
  case Swizzle::B32:
    return 1;
  case Swizzle::B64:
    return 2;
  case Swizzle::B128:
    return 3;
  }
  return 0;
}

} // namespace

uint32_t swizzle_row_bytes(Swizzle s) {
  return 16u << swizzle_bits(s);
}

uint64_t swizzle_address(Swizzle s, uint64_t address) {
  const uint64_t mask = (uint64_t{1} << swizzle_bits(s)) - 1;
  return address ^ (((address >> 7) & mask) << 4);
}

uint64_t operand_address(const MatrixDescriptor& d, bool mn_major, uint32_t mn, uint32_t k) {
  assert(k < 16);
  constexpr uint64_t kElem = 2; // bytes of a 16-bit element
  const uint64_t row_bytes = swizzle_row_bytes(d.swizzle);
  uint64_t offset = 0;
  if (!mn_major) {
    // 8-row groups along MN at SBO; within a group one row every `row_bytes` (16 B: the core
    // matrix's rows). Along K: 8 elements in 16 contiguous bytes, the second 8 at LBO (none) or
    // right after (a swizzled row holds all 32 bytes of K).
    const uint64_t k_chunk = d.swizzle == Swizzle::None ? d.leading : 16;
    offset =
        (mn / 8) * uint64_t{d.stride} + (mn % 8) * row_bytes + (k / 8) * k_chunk + (k % 8) * kElem;
  } else if (d.swizzle == Swizzle::None) {
    // Core matrices of 8 MN-contiguous elements (16 B) by 8 K-rows (one every 16 B): SBO between
    // core matrices along MN, LBO between them along K.
    offset = (mn / 8) * uint64_t{d.stride} + (mn % 8) * kElem + (k / 8) * uint64_t{d.leading} +
             (k % 8) * 16;
  } else {
    // Rows of `row_bytes` along MN, one per K index, 8 K-rows per pattern; LBO between patterns
    // along MN, SBO between 8-K-row groups.
    const uint64_t per_row = row_bytes / kElem;
    offset = (mn / per_row) * uint64_t{d.leading} + (mn % per_row) * kElem +
             (k / 8) * uint64_t{d.stride} + (k % 8) * row_bytes;
  }
  return swizzle_address(d.swizzle, d.start + offset);
}

std::optional<std::string> unsupported_descriptor(const MatrixDescriptor& d) {
  if (d.base_offset != 0)
    return "a wgmma matrix descriptor with a non-zero matrix base offset (bits 49-51) is not "
           "modeled";
  return std::nullopt;
}

Element accumulator_element(uint32_t t, uint32_t v) {
  const uint32_t w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
  return {16 * w + g + 8 * ((v >> 1) & 1), 8 * (v >> 2) + 2 * q + (v & 1)};
}

Element a_register_element(uint32_t t, uint32_t v) {
  assert(v < 8);
  const uint32_t w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
  return {16 * w + g + 8 * ((v >> 1) & 1), 2 * q + (v & 1) + 8 * (v >> 2)};
}

} // namespace volta::exec::wgmma
