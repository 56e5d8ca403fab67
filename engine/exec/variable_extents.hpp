// The byte ranges of a CTA's shared variables and of a thread's local variables. The lowering
// separates variables by red zones; an access is in bounds only inside one variable's range, so
// running one element past an array is out of bounds even where the address space continues.
// The symbolic runner and the concrete emulator check accesses against the same ranges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/exec/program.hpp"

namespace volta::exec {

using Extent = std::pair<uint64_t, uint64_t>; // [start, end)
using Extents = std::vector<Extent>;          // sorted by start, disjoint
inline constexpr size_t kNoExtent = SIZE_MAX;

struct VariableExtents {
  Extents shared; // the dynamic shared variable spans the launch's dynamic shared bytes
  Extents local;
};

VariableExtents variable_extents(const Program& prog, uint64_t dyn_shared_bytes);

// Does [address, address + size) lie inside the extent?
bool holds(const Extent& extent, uint64_t address, uint64_t size);

// The index of the extent that holds [address, address + size), or kNoExtent.
size_t extent_holding(const Extents& extents, uint64_t address, uint64_t size);

} // namespace volta::exec
