// Element types of the arrays the emulator reads and writes, and element access as numbers.
// The type is the manifest's (launch::ElemType, one enum for the engine: its words, widths and
// classes are launch_config's); the emulator always knows it, so Unknown never reaches the
// functions below.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/launch/launch_config.hpp"

namespace volta::emulate {

using launch::byte_width;
using launch::ElemType;
using launch::is_float;
using launch::is_signed_int;
using launch::to_string;
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
