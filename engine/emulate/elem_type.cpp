#include "engine/emulate/elem_type.hpp"

#include <cmath>
#include <cstring>

#include "engine/emulate/float_semantics.hpp"

namespace volta::emulate {

namespace {

struct TypeInfo {
  ElemType type;
  std::string_view name;
  uint32_t bytes;
  std::string_view descr;
};

constexpr TypeInfo kTypes[] = {
    {ElemType::F16, "f16", 2, "<f2"}, {ElemType::BF16, "bf16", 2, "<u2"},
    {ElemType::F32, "f32", 4, "<f4"}, {ElemType::F64, "f64", 8, "<f8"},
    {ElemType::S8, "s8", 1, "|i1"},   {ElemType::S16, "s16", 2, "<i2"},
    {ElemType::S32, "s32", 4, "<i4"}, {ElemType::S64, "s64", 8, "<i8"},
    {ElemType::U8, "u8", 1, "|u1"},   {ElemType::U16, "u16", 2, "<u2"},
    {ElemType::U32, "u32", 4, "<u4"}, {ElemType::U64, "u64", 8, "<u8"},
};

const TypeInfo& info(ElemType t) {
  return kTypes[static_cast<size_t>(t)];
}

FloatFormat format_of(ElemType t) {
  switch (t) {
  case ElemType::F16:
    return FloatFormat::F16;
  case ElemType::BF16:
    return FloatFormat::BF16;
  case ElemType::F64:
    return FloatFormat::F64;
  default:
    return FloatFormat::F32;
  }
}

uint64_t load_le(const uint8_t* bytes, uint32_t n) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < n; ++i)
    v |= uint64_t{bytes[i]} << (8 * i);
  return v;
}

} // namespace

std::string_view to_string(ElemType t) {
  return info(t).name;
}

std::optional<ElemType> parse_elem_type(std::string_view name) {
  for (const auto& i : kTypes) {
    if (i.name == name)
      return i.type;
  }
  return std::nullopt;
}

uint32_t elem_bytes(ElemType t) {
  return info(t).bytes;
}

bool is_float(ElemType t) {
  return t == ElemType::F16 || t == ElemType::BF16 || t == ElemType::F32 || t == ElemType::F64;
}

bool is_signed(ElemType t) {
  return t == ElemType::S8 || t == ElemType::S16 || t == ElemType::S32 || t == ElemType::S64;
}

std::string_view npy_descr(ElemType t) {
  return info(t).descr;
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
  const uint32_t n = elem_bytes(t);
  const uint64_t v = load_le(bytes, n);
  if (is_float(t))
    return decode(format_of(t), v);
  if (is_signed(t)) {
    const int shift = 64 - 8 * static_cast<int>(n);
    return static_cast<double>(static_cast<int64_t>(v << shift) >> shift);
  }
  return static_cast<double>(v);
}

void write_element(ElemType t, double value, uint8_t* bytes) {
  const uint32_t n = elem_bytes(t);
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
