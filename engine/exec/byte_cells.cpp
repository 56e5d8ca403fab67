#include "engine/exec/byte_cells.hpp"

namespace volta::exec {
namespace {

// Rebuilds bytes [0, width) as a node (at least one byte is symbolic).
ExprId assemble(const ByteCell* cells, uint32_t width, symbolic::Builder& b) {
  const ByteCell& first = cells[0];
  if (first.node != 0) {
    const uint32_t value_width = 1u << (first.pos >> 4);
    const uint32_t start = first.pos & 15;
    bool contiguous = start + width <= value_width;
    for (uint32_t i = 1; contiguous && i < width; ++i) {
      contiguous = cells[i].node == first.node && (cells[i].pos & 15) == start + i &&
                   (cells[i].pos >> 4) == (first.pos >> 4);
    }
    if (contiguous) {
      if (start == 0 && width == value_width)
        return first.node;
      return b.extract(first.node, static_cast<int>(8 * start), static_cast<int>(8 * width));
    }
  }
  bool all_concrete = true;
  for (uint32_t i = 0; i < width; ++i)
    all_concrete &= cells[i].node == 0;
  if (all_concrete) {
    uint64_t bits = 0;
    for (uint32_t i = 0; i < width; ++i)
      bits |= uint64_t{cells[i].byte} << (8 * i);
    return b.store().raw_bits(bits, static_cast<int>(8 * width));
  }
  if (width == 1) {
    return b.extract(first.node, static_cast<int>(8 * (first.pos & 15)), 8);
  }
  const uint32_t half = width / 2;
  return b.pack(assemble(cells, half, b), assemble(cells + half, half, b),
                static_cast<int>(8 * half));
}

} // namespace

Value load_mixed_value(const ByteCell* cells, uint32_t width, ExprId undef, symbolic::Builder& b) {
  bool concrete = true;
  for (uint32_t i = 0; i < width; ++i) {
    if (cells[i].node == undef)
      return Value{0, undef};
    concrete &= cells[i].node == 0;
  }
  if (concrete) {
    uint64_t bits = 0;
    for (uint32_t i = 0; i < width; ++i)
      bits |= uint64_t{cells[i].byte} << (8 * i);
    return Value{bits, 0};
  }
  return Value{0, assemble(cells, width, b)};
}

} // namespace volta::exec
