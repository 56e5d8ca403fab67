#include "engine/launch/launch_config.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>

#include "support/invariant.hpp"

namespace volta::launch {

std::string_view to_string(ArrayKind k) {
  switch (k) {
  case ArrayKind::In:
    return "in";
  case ArrayKind::Out:
    return "out";
  case ArrayKind::InOut:
    return "inout";
  case ArrayKind::Index:
    return "index";
  case ArrayKind::Zero:
    return "zero";
  }
  return "?";
}

bool is_output(ArrayKind k) {
  return k == ArrayKind::Out || k == ArrayKind::InOut || k == ArrayKind::Zero;
}

namespace {
struct ElemTypeInfo {
  std::string_view name;
  uint32_t bytes;
};
constexpr ElemTypeInfo kElemTypes[] = {
    {"unknown", 0}, {"u8", 1},  {"u16", 2}, {"u32", 4},  {"u64", 8}, {"s8", 1}, {"s16", 2},
    {"s32", 4},     {"s64", 8}, {"f16", 2}, {"bf16", 2}, {"f32", 4}, {"f64", 8}};
static_assert(std::size(kElemTypes) == static_cast<size_t>(ElemType::F64) + 1);
} // namespace

std::string_view to_string(ElemType t) {
  VOLTA_ASSERT(static_cast<size_t>(t) < std::size(kElemTypes), "an ElemType of the enum");
  return kElemTypes[static_cast<size_t>(t)].name;
}

std::optional<ElemType> elem_type_from(std::string_view word) {
  for (size_t i = 1; i < std::size(kElemTypes); ++i) {
    if (kElemTypes[i].name == word)
      return static_cast<ElemType>(i);
  }
  return std::nullopt;
}

uint32_t byte_width(ElemType t) {
  VOLTA_ASSERT(static_cast<size_t>(t) < std::size(kElemTypes), "an ElemType of the enum");
  return kElemTypes[static_cast<size_t>(t)].bytes;
}

bool is_float(ElemType t) {
  return t == ElemType::F16 || t == ElemType::BF16 || t == ElemType::F32 || t == ElemType::F64;
}

bool is_signed_int(ElemType t) {
  return t == ElemType::S8 || t == ElemType::S16 || t == ElemType::S32 || t == ElemType::S64;
}

const ArraySpec* KernelConfig::find_array(std::string_view name) const {
  for (const auto& a : arrays) {
    if (a.name == name)
      return &a;
  }
  return nullptr;
}

namespace {
struct FieldTypeInfo {
  std::string_view name;
  uint32_t bytes;
};
constexpr FieldTypeInfo kFieldTypes[] = {{"u64", 8}, {"s64", 8},  {"u32", 4}, {"s32", 4},
                                         {"u8", 1},  {"bool", 1}, {"f32", 4}, {"tensormap", 128}};
static_assert(std::size(kFieldTypes) == static_cast<size_t>(StructField::Type::TensorMap) + 1);
} // namespace

std::optional<StructField::Type> struct_field_type_from(std::string_view word) {
  for (size_t i = 0; i < std::size(kFieldTypes); ++i) {
    if (kFieldTypes[i].name == word)
      return static_cast<StructField::Type>(i);
  }
  return std::nullopt;
}

std::string_view to_string(StructField::Type t) {
  return kFieldTypes[static_cast<size_t>(t)].name;
}

uint32_t byte_width(StructField::Type t) {
  return kFieldTypes[static_cast<size_t>(t)].bytes;
}

std::vector<uint8_t> aggregate_bytes(const ParamSpec& p, const KernelConfig& config) {
  std::vector<uint8_t> bytes(p.struct_size, 0);
  std::copy_n(p.struct_bytes.begin(), std::min(p.struct_bytes.size(), bytes.size()), bytes.begin());
  for (const auto& f : p.struct_fields) {
    if (f.type == StructField::Type::TensorMap)
      continue; // the driver's encoding: unknown; the bytes stay as `bytes` gave them
    uint64_t bits = f.bits;
    if (!f.array.empty()) {
      const ArraySpec* a = config.find_array(f.array);
      bits = a ? a->base : 0;
    }
    for (uint32_t i = 0; i < byte_width(f.type) && f.offset + i < bytes.size(); ++i)
      bytes[f.offset + i] = static_cast<uint8_t>(bits >> (8 * i));
  }
  return bytes;
}

std::string array_clash(const std::vector<ArraySpec>& arrays, const ArraySpec& a) {
  for (const ArraySpec& other : arrays) {
    if (other.name == a.name)
      return fmt::format("duplicate array \"{}\"", a.name);
    if (a.base < other.end() && other.base < a.end())
      return fmt::format("array \"{}\" overlaps array \"{}\"", a.name, other.name);
  }
  return {};
}

} // namespace volta::launch
