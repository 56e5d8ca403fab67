// Results of conversions whose source has at most 16 bits (cvt.f32.f16, cvt.f32.bf16,
// cvt.s32.s8, ...), remembered per conversion shape as lanes meet them: a tiled f16 GEMM widens
// every element it reads, tens of millions of times, from at most 65536 distinct sources.
//
// A cvt's result is a function of its source bits and of what the shape key holds (the types,
// the rounding, .ftz, .sat, .relu, the modifiers read from the text, the destination register's
// width); Cta::step computes each result once through exec_cvt itself and remembers it only when
// that computation recorded no RealArithmeticEvents (an event must be counted every time it
// happens, so such a source is computed every time).
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/exec/program.hpp"

namespace volta::emulate {

class ConversionMemo {
public:
  // The shape of `in` (a cvt with one register source of at most 16 bits) with the instruction's
  // text flags and its destination register's width.
  static uint64_t shape_of(const exec::Inst& in, uint32_t text_flags, uint32_t destination_width) {
    return uint64_t{static_cast<uint8_t>(in.type)} | uint64_t{static_cast<uint8_t>(in.type2)} << 8 |
           uint64_t{static_cast<uint8_t>(in.rounding)} << 16 | uint64_t{in.ftz} << 24 |
           uint64_t{in.sat} << 25 | uint64_t{in.relu} << 26 | uint64_t{destination_width} << 32 |
           uint64_t{text_flags & 0xffffu} << 40;
  }
  // The table of a shape, which source values index, once `lanes` more lanes bring the shape's
  // count to kWorthATable: a table costs 576 KiB to make, more than a small kernel's
  // conversions (null before, and the caller converts lane by lane).
  struct Table {
    std::vector<uint64_t> result = std::vector<uint64_t>(kSources);
    std::vector<uint8_t> known = std::vector<uint8_t>(kSources);
  };
  Table* table(uint64_t shape, uint32_t lanes) {
    Shape& s = shapes_[shape];
    s.lanes += lanes;
    if (!s.table && s.lanes >= kWorthATable)
      s.table = std::make_unique<Table>();
    return s.table.get();
  }
  static constexpr uint32_t kSources = 1u << 16;
  static constexpr uint64_t kWorthATable = 1u << 14;

private:
  struct Shape {
    uint64_t lanes = 0;
    std::unique_ptr<Table> table;
  };
  std::unordered_map<uint64_t, Shape> shapes_;
};

} // namespace volta::emulate
