// A TMA tensor map (CUtensorMap) given by the arguments of cuTensorMapEncodeTiled, the way the
// host program builds it: the descriptor's 128 bytes are the driver's undocumented encoding
// (they differ between drivers and cannot be made without one), so a manifest names what the
// library passed to the driver instead (docs/cli.md, "Tensor maps").
//
// Checked against cuda.h's documented requirements of cuTensorMapEncodeTiled (tensor_map.cpp):
// what the driver would refuse is a located manifest error, never a map the engine would use.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace volta::launch {

struct TensorMap {
  // CUtensorMapDataType (CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0 ... 16U6_ALIGN16B = 15).
  uint32_t data_type = 0;
  uint32_t rank = 0;                        // 1..5
  std::string array;                        // globalAddress: the base of this manifest array...
  uint64_t array_offset = 0;                // ...plus these bytes ("ptr:A" or "ptr:A+256")
  std::array<uint64_t, 5> global_dim{};     // elements, innermost first
  std::array<uint64_t, 4> global_strides{}; // bytes, of dimensions 1..rank-1
  std::array<uint32_t, 5> box_dim{};
  std::array<uint32_t, 5> element_strides{};
  uint32_t interleave = 0;   // CUtensorMapInterleave: NONE, 16B, 32B
  uint32_t swizzle = 0;      // CUtensorMapSwizzle: NONE, 32B, 64B, 128B, 128B_ATOM_32B, ...
  uint32_t l2_promotion = 0; // CUtensorMapL2promotion: NONE, L2_64B, L2_128B, L2_256B
  uint32_t oob_fill = 0;     // CUtensorMapFloatOOBfill: NONE, NAN_REQUEST_ZERO_FMA

  friend bool operator==(const TensorMap&, const TensorMap&) = default;
};

// Bytes of one element of `data_type` (0 for the packed sub-byte types 16U4/16U6).
uint32_t tensor_map_element_bytes(uint32_t data_type);

// The enumerator names of the four enums (cuda.h's spelling), for messages and the manifest.
std::string_view tensor_map_data_type_name(uint32_t v);
std::string_view tensor_map_swizzle_name(uint32_t v);

// One line that names the map's arguments, for run-cache keys and messages.
std::string describe(const TensorMap& m);

} // namespace volta::launch
