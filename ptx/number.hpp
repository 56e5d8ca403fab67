// Reading PTX numeric literals (the text of a Number token) and printing immediates back.
// Internal to the front end; shared by the parser and the printer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace volta::ptx::detail {

struct NumberValue {
  enum Kind : uint8_t { Int, Float, Bad } kind = Bad;
  uint64_t bits = 0;           // Int: the magnitude (two's complement after negate()); Float: IEEE
  uint8_t width = 64;          // Float: 32 (0f...) or 64 (0d..., decimal)
  bool is_unsigned = false;    // Int: the `U` suffix
  const char* error = nullptr; // Bad: why
};

// Decimal, hex (0x), octal (0...), binary (0b) integers with an optional `U`; 0fXXXXXXXX,
// 0dXXXXXXXXXXXXXXXX and decimal floats (read as f64). Never throws.
NumberValue read_number(std::string_view text);

// Applies a leading minus: two's complement for integers, the sign bit for floats.
void negate(NumberValue& v);

// Spellings that read back to the same value: `-12`, `4294967295U`, `0f3F800000`.
std::string int_literal(int64_t value, bool is_unsigned);
std::string float_literal(uint64_t bits, uint8_t width);
// A signed offset as in `sym+12` / `sym-4` (`[%r1+-4]` uses `+` then this).
std::string signed_decimal(int64_t value);

} // namespace volta::ptx::detail
