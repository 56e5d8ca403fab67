// The box of a tiled TMA copy (see tma_box.hpp for the meaning and its sources).
#include "engine/exec/tma_box.hpp"

#include <cassert>
#include <fmt/format.h>

namespace volta::exec {

namespace {

constexpr uint32_t kSwizzleNone = 0, kSwizzle32B = 1, kSwizzle64B = 2, kSwizzle128B = 3;
constexpr uint32_t kInterleaveNone = 0;
constexpr uint32_t kOobFillNan = 1;

// Bytes of the swizzle span (0: none).
uint32_t swizzle_span(uint32_t swizzle) {
  switch (swizzle) {
  case kSwizzle32B:
    return 32;
  case kSwizzle64B:
    return 64;
  case kSwizzle128B:
    return 128;
  default:
    return 0;
  }
}

bool is_float_data(uint32_t data_type) {
  return data_type >= 6 && data_type <= 12; // FLOAT16 .. TFLOAT32_FTZ (cuda.h's order)
}

} // namespace

uint64_t tma_swizzle(uint32_t swizzle, uint64_t address) {
  const uint32_t bits = swizzle == kSwizzle32B    ? 1
                        : swizzle == kSwizzle64B  ? 2
                        : swizzle == kSwizzle128B ? 3
                                                  : 0;
  assert((swizzle == kSwizzleNone || bits > 0) && "tma_box refuses the other swizzles");
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  return address ^ (((address >> 7) & mask) << 4);
}

std::variant<TmaBox, std::string>
tma_box(const launch::TensorMap& map, std::span<const int32_t> coords, uint64_t shared_address) {
  if (map.rank == 0 || map.rank > 5 || coords.size() != map.rank)
    return fmt::format("a {}-dimensional tensor map given {} coordinates", map.rank, coords.size());
  if (map.interleave != kInterleaveNone)
    return "an interleaved tensor map (CU_TENSOR_MAP_INTERLEAVE_16B/32B) is not modelled";
  const uint32_t bytes = launch::tensor_map_element_bytes(map.data_type);
  if (bytes == 0)
    return fmt::format("the packed data type {} is not modelled",
                       launch::tensor_map_data_type_name(map.data_type));
  const uint32_t span = swizzle_span(map.swizzle);
  if (map.swizzle != kSwizzleNone && span == 0)
    return fmt::format("the swizzle mode {} is not modelled",
                       launch::tensor_map_swizzle_name(map.swizzle));
  // Elements per dimension in shared memory; dimension 0 has no traversal stride.
  uint32_t count[5] = {1, 1, 1, 1, 1};
  uint32_t step[5] = {1, 1, 1, 1, 1};
  for (uint32_t i = 0; i < map.rank; ++i) {
    step[i] = i == 0 ? 1 : map.element_strides[i];
    assert(step[i] >= 1 && map.box_dim[i] >= 1 && "checked when the map was read");
    count[i] = (map.box_dim[i] + step[i] - 1) / step[i];
  }
  const uint64_t row_bytes = uint64_t{count[0]} * bytes;
  if (span != 0 && row_bytes != span)
    return fmt::format("a box whose inner dimension is {} bytes under the {}-byte swizzle (only a "
                       "box row of exactly the swizzle span is modelled)",
                       row_bytes, span);
  TmaBox box;
  box.element_bytes = bytes;
  box.nan_fill = map.oob_fill == kOobFillNan && is_float_data(map.data_type);
  uint64_t total = 1;
  for (uint32_t i = 0; i < map.rank; ++i)
    total *= count[i];
  box.bytes = total * bytes;
  box.elements.reserve(total);
  // Byte stride of each dimension in global memory: the element size, then the map's strides.
  uint64_t stride[5] = {bytes, 0, 0, 0, 0};
  for (uint32_t i = 1; i < map.rank; ++i)
    stride[i] = map.global_strides[i - 1];
  uint32_t index[5] = {0, 0, 0, 0, 0};
  for (uint64_t n = 0; n < total; ++n) {
    // Index `index` is element n of the box (dimension 0 fastest).
    bool inside = true;
    uint64_t global = 0;
    for (uint32_t i = 0; i < map.rank; ++i) {
      const int64_t c = int64_t{coords[i]} + int64_t{index[i]} * step[i];
      if (c < 0 || static_cast<uint64_t>(c) >= map.global_dim[i]) {
        inside = false;
        break;
      }
      global += static_cast<uint64_t>(c) * stride[i];
    }
    TmaBoxElement e;
    e.shared_address = tma_swizzle(map.swizzle, shared_address + n * bytes);
    if (inside)
      e.global_offset = global;
    box.elements.push_back(e);
    for (uint32_t i = 0; i < map.rank && ++index[i] == count[i]; ++i)
      index[i] = 0;
  }
  return box;
}

} // namespace volta::exec
