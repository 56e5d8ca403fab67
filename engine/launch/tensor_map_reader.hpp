// Reading a tensor map from a manifest (the value of a `"type": "tensormap"` field of an
// aggregate parameter) and checking it against cuTensorMapEncodeTiled's documented requirements.
// The form is documented in docs/cli.md, "Tensor maps".
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "engine/launch/launch_config.hpp"
#include "engine/launch/tensor_map.hpp"

namespace volta::launch {

// A problem with a tensor map: the JSON path of the value at fault and why.
struct TensorMapProblem {
  std::string path;
  std::string message;
};

// The map of `j` (the field's "value" object at JSON path `path`), or the first problem:
// an unknown or missing key, a value of the wrong type, an unknown enumerator, or a violation
// of cuTensorMapEncodeTiled's requirements (tensor_map_problem).
struct TensorMapRead {
  std::optional<TensorMap> map;
  std::optional<TensorMapProblem> problem;
};
TensorMapRead read_tensor_map(const nlohmann::json& j, const std::string& path);

// The first requirement of cuTensorMapEncodeTiled (cuda.h) that `m` breaks, with the JSON path
// (under `path`) of the argument at fault; nullopt when the driver would encode it.
std::optional<TensorMapProblem> tensor_map_problem(const TensorMap& m, const std::string& path);

// With the kernel's arrays known: the global address must name an array, be aligned as
// cuda.h requires (16 bytes; 32 with 32-byte interleave or the 16-byte-aligned packed types),
// and every element the map describes must lie inside that array.
std::optional<TensorMapProblem>
tensor_map_array_problem(const TensorMap& m, const KernelConfig& config, const std::string& path);

} // namespace volta::launch
