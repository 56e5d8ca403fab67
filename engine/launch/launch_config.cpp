#include "engine/launch/launch_config.hpp"

#include <iterator>

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

} // namespace volta::launch
