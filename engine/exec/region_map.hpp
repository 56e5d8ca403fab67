// The regions of a launch's global memory (the arrays of its configuration and the module's
// .global variables) sorted by base address: which region holds an access, and whether two
// regions share a byte. Written once for both machines' global memories (GlobalMemory's symbolic
// cells, the emulator's concrete pages), which keep their own region type and storage: generic
// over the region (a `base` member) and how its size in bytes is read.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace volta::exec {

// Whether the region of `bytes` bytes at `base` holds all of [address, address + size). No sum
// can wrap around the address space: the access is measured from the region's base (an address
// below it wraps to an offset past every region's end).
inline bool holds_access(uint64_t base, uint64_t bytes, uint64_t address, uint64_t size) {
  return address - base < bytes && size <= bytes - (address - base);
}

// Sorts regions by base address, the order the lookups below need.
template <class It>
void sort_by_base(It begin, It end) {
  std::sort(begin, end, [](const auto& a, const auto& b) { return a.base < b.base; });
}

// The region of [first, last) (sorted by base; `extent(r)` its size in bytes) that holds all of
// [address, address + size), or nullptr. Only the region of the largest base at or below
// `address` is looked at: with disjoint regions (see first_overlap) it is the only candidate.
template <class R, class Extent>
R* region_holding(R* first, R* last, uint64_t address, uint64_t size, Extent&& extent) {
  R* it = std::upper_bound(first, last, address, [](uint64_t a, const R& r) { return a < r.base; });
  if (it == first)
    return nullptr;
  --it;
  return holds_access(it->base, extent(*it), address, size) ? it : nullptr;
}

// The first index i > 0 such that regions i - 1 and i of [begin, end) (sorted by base) share a
// byte, or 0 when no two regions do.
template <class It, class Extent>
size_t first_overlap(It begin, It end, Extent&& extent) {
  for (It it = begin; it != end && std::next(it) != end; ++it) {
    if (std::next(it)->base - it->base < extent(*it))
      return static_cast<size_t>(std::distance(begin, it)) + 1;
  }
  return 0;
}

} // namespace volta::exec
