#include "engine/emulate/elem_type.hpp"

#include <cmath>
#include <cstring>

#include "engine/emulate/float_semantics.hpp"
#include "support/invariant.hpp"

namespace volta::emulate {

namespace {

FloatFormat format_of(ElemType t) {
  switch (t) {
  case ElemType::F16:
    return FloatFormat::F16;
  case ElemType::BF16:
    return FloatFormat::BF16;
  case ElemType::F32:
    return FloatFormat::F32;
  case ElemType::F64:
    return FloatFormat::F64;
  default:
    VOLTA_UNREACHABLE("format_of: not a float element type");
  }
}

uint64_t load_le(const uint8_t* bytes, uint32_t n) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < n; ++i)
    v |= uint64_t{bytes[i]} << (8 * i);
  return v;
}

} // namespace

std::string_view npy_descr(ElemType t) {
  switch (t) {
  case ElemType::F16:
    return "<f2";
  case ElemType::BF16:
    return "<u2"; // numpy has no bfloat16: its bits
  case ElemType::F32:
    return "<f4";
  case ElemType::F64:
    return "<f8";
  case ElemType::S8:
    return "|i1";
  case ElemType::S16:
    return "<i2";
  case ElemType::S32:
    return "<i4";
  case ElemType::S64:
    return "<i8";
  case ElemType::U8:
    return "|u1";
  case ElemType::U16:
    return "<u2";
  case ElemType::U32:
    return "<u4";
  case ElemType::U64:
    return "<u8";
  case ElemType::Unknown:
    break;
  }
  VOLTA_UNREACHABLE("npy_descr: the emulator's element types are always known");
}

ElemType default_elem_type(const launch::ArraySpec& a) {
  if (a.kind == launch::ArrayKind::Index) {
    switch (a.elem_width) {
    case 1:
      return ElemType::S8;
    case 2:
      return ElemType::S16;
    case 8:
      return ElemType::S64;
    default:
      return ElemType::S32;
    }
  }
  switch (a.elem_width) {
  case 1:
    return ElemType::U8;
  case 2:
    return ElemType::F16;
  case 8:
    return ElemType::F64;
  default:
    return ElemType::F32;
  }
}

double read_element(ElemType t, const uint8_t* bytes) {
  VOLTA_ASSERT(t != ElemType::Unknown, "the emulator reads elements of a known type");
  const uint32_t n = byte_width(t);
  const uint64_t v = load_le(bytes, n);
  if (is_float(t))
    return decode(format_of(t), v);
  if (is_signed_int(t)) {
    const int shift = 64 - 8 * static_cast<int>(n);
    return static_cast<double>(static_cast<int64_t>(v << shift) >> shift);
  }
  return static_cast<double>(v);
}

void write_element(ElemType t, double value, uint8_t* bytes) {
  VOLTA_ASSERT(t != ElemType::Unknown, "the emulator writes elements of a known type");
  const uint32_t n = byte_width(t);
  uint64_t v = 0;
  if (is_float(t)) {
    v = encode(format_of(t), value, RoundMode::NearestEven);
  } else if (std::isfinite(value)) {
    v = static_cast<uint64_t>(static_cast<int64_t>(std::trunc(value)));
  }
  for (uint32_t i = 0; i < n; ++i)
    bytes[i] = static_cast<uint8_t>(v >> (8 * i));
}

} // namespace volta::emulate
