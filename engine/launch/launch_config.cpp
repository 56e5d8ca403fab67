#include "engine/launch/launch_config.hpp"

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

const ArraySpec* KernelConfig::find_array(std::string_view name) const {
  for (const auto& a : arrays) {
    if (a.name == name)
      return &a;
  }
  return nullptr;
}

} // namespace volta::launch
