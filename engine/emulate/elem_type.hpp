// Element types of the arrays the emulator reads and writes, and element access as numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/launch/launch_config.hpp"

namespace volta::emulate {

enum class ElemType : uint8_t { F16, BF16, F32, F64, S8, S16, S32, S64, U8, U16, U32, U64 };

std::string_view to_string(ElemType t);
std::optional<ElemType> parse_elem_type(std::string_view name); // "f32", "s32", ...
uint32_t elem_bytes(ElemType t);
bool is_float(ElemType t);
bool is_signed(ElemType t);
// The numpy descr of the type ("<f4", "<i4", "<u2", "<f2"; bfloat16 has none: "<u2", its bits).
std::string_view npy_descr(ElemType t);

// The type assumed for an array whose launch configuration gives only a width: floats for
// 2, 4 and 8 bytes (f16, f32, f64), u8 for 1 byte; index arrays are s32/s64/s16/s8.
ElemType default_elem_type(const launch::ArraySpec& a);

// Element `bytes` (little-endian) as a number, and a number stored as an element (floats round
// to nearest-even, integers are truncated toward zero and wrap).
double read_element(ElemType t, const uint8_t* bytes);
void write_element(ElemType t, double value, uint8_t* bytes);

} // namespace volta::emulate
