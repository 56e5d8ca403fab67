#include "engine/exec/variable_extents.hpp"

#include <algorithm>

namespace volta::exec {

VariableExtents variable_extents(const Program& prog, uint64_t dyn_shared_bytes) {
  VariableExtents e;
  for (const auto& v : prog.variables) {
    if (v.space == Space::Shared)
      e.shared.emplace_back(v.address, v.address + (v.dynamic ? dyn_shared_bytes : v.size));
    else if (v.space == Space::Local)
      e.local.emplace_back(v.address, v.address + v.size);
  }
  std::sort(e.shared.begin(), e.shared.end());
  std::sort(e.local.begin(), e.local.end());
  return e;
}

bool holds(const Extent& extent, uint64_t address, uint64_t size) {
  return address >= extent.first && address + size <= extent.second && address + size >= address;
}

size_t extent_holding(const Extents& extents, uint64_t address, uint64_t size) {
  auto it = std::upper_bound(extents.begin(), extents.end(), std::make_pair(address, ~uint64_t{0}));
  if (it == extents.begin() || !holds(*std::prev(it), address, size))
    return kNoExtent;
  return static_cast<size_t>(std::prev(it) - extents.begin());
}

} // namespace volta::exec
