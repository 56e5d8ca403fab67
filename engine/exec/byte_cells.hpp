// Byte-addressed symbolic memory contents. Each byte is either concrete or a piece of a symbolic
// value: (node, position of the byte inside the value, width of the value). Loads reassemble
// whole values when the bytes line up, and otherwise build Pack/Extract views, so that f16 data
// moved through b32 registers (TileLang's `ld.global.v4.u32` of eight halves) stays exact.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/symbolic/builder.hpp"

namespace volta::exec {

using symbolic::ExprId;

// A register-sized value: concrete bits when node == 0, else the symbolic node.
struct Value {
  uint64_t bits = 0;
  ExprId node = 0;
  // The value came out of a float operation or a float load. Integer instructions on such data
  // are bit tricks, not arithmetic: only integer-typed data (the corpus's int reductions) is
  // treated as a real number by add.s32 and friends.
  bool fl = false;
  // The value is bf16 data (a cvt to bf16, bf16x2 arithmetic, an unpack of either, a load of
  // bytes a bf16 store wrote): its bits placed in the high half of a 32-bit register are that f32
  // exactly (nvcc's widening mov.b32 %f, {0, %h}); an f16's are not.
  bool bf16 = false;
  // The value is f16 data (a cvt to f16, f16 / f16x2 arithmetic, an unpack, a load of bytes an
  // f16 store wrote). A bf16 instruction reading it reads another number (exec_formats.cpp).
  // Neither tag: a 16-bit float of unknown format, read in the format of the instruction.
  bool f16 = false;
  // Explicit padding: with a byte of it implicit, GCC copies a Value as two overlapping
  // 8-byte moves (bytes 0-7 and 6-13), and the second read of a Value just written by halves
  // misses store forwarding: a stall on every operand of exec_integer (44% of its samples).
  uint8_t padding = 0;
  bool symbolic() const { return node != 0; }
};

struct ByteCell {
  ExprId node = 0; // 0: concrete byte in `byte`
  uint8_t byte = 0;
  uint8_t pos = 0;       // byte index inside the value (low nibble) | log2(value width) << 4
  uint8_t written = 0;   // global memory: stored to by the kernel (kWritten... bits)
  uint8_t stored_as = 0; // StoredAs of the last store: how concrete bits read as a number
};

// ByteCell::written of global memory: a store wrote the byte, and a tensor store did (through
// the async proxy: exec_tensor_store.cpp refuses every other access of such a byte).
inline constexpr uint8_t kWrittenByStore = 1;
inline constexpr uint8_t kWrittenByTensorStore = 2;

// How the bytes of an output element were last stored, which says what real number concrete
// bits stand for (the arrays of a launch carry a width, not a type).
enum StoredAs : uint8_t {
  kStoredUnsigned = 0,
  kStoredSigned = 1,
  kStoredFloat = 2, // float data of the width of its store (2 bytes: a half of unknown format)
  // global memory: an input element whose symbol is created on first access
  kLazyInput = 3,
  kStoredF16 = 4, // 16-bit float data known to be an f16 (Value::f16)
  kStoredBF16 = 5 // 16-bit float data known to be a bf16 (Value::bf16)
};

// Bytes stored as float data, of any format.
inline bool stored_float(uint8_t stored_as) {
  return stored_as == kStoredFloat || stored_as == kStoredF16 || stored_as == kStoredBF16;
}

// Writes `width` bytes (1, 2, 4, 8) of `v` into `cells`.
inline void store_value(ByteCell* cells, const Value& v, uint32_t width) {
  if (!v.symbolic()) {
    for (uint32_t i = 0; i < width; ++i) {
      cells[i].node = 0;
      cells[i].byte = static_cast<uint8_t>(v.bits >> (8 * i));
      cells[i].pos = 0;
    }
    return;
  }
  const uint8_t log_width = static_cast<uint8_t>(__builtin_ctz(width) << 4);
  for (uint32_t i = 0; i < width; ++i) {
    cells[i].node = v.node;
    cells[i].byte = 0;
    cells[i].pos = static_cast<uint8_t>(log_width | i);
  }
}

// load_value's general case: concrete bytes, undefined ones, or pieces of several values.
Value load_mixed_value(const ByteCell* cells, uint32_t width, ExprId undef, symbolic::Builder& b);

// Reads `width` bytes back as one value. `undef` is the node that marks uninitialized bytes: a
// load touching any of them yields `undef`. Inline: the common case, the bytes of one stored
// (defined) value, is a few compares on every load.
inline Value load_value(const ByteCell* cells, uint32_t width, ExprId undef, symbolic::Builder& b) {
  const ByteCell& first = cells[0];
  if (first.node != 0 && first.node != undef &&
      first.pos == (static_cast<uint32_t>(__builtin_ctz(width)) << 4)) {
    bool whole = true;
    for (uint32_t i = 1; whole && i < width; ++i)
      whole = cells[i].node == first.node && cells[i].pos == (first.pos | i);
    if (whole)
      return Value{0, first.node};
  }
  return load_mixed_value(cells, width, undef, b);
}

} // namespace volta::exec
