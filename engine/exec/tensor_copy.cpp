#include "engine/exec/tensor_copy.hpp"

#include <fmt/format.h>

namespace volta::exec {

const launch::TensorMap* tensor_map_at(const Program& prog, const launch::KernelConfig& config,
                                       uint64_t address) {
  for (size_t i = 0; i < config.params.size() && i < prog.param_offsets.size(); ++i) {
    const launch::ParamSpec& p = config.params[i];
    if (p.kind != launch::ParamSpec::Kind::Struct)
      continue;
    for (const launch::StructField& f : p.struct_fields) {
      if (f.tensor_map && prog.param_offsets[i] + f.offset == address)
        return &*f.tensor_map;
    }
  }
  return nullptr;
}

namespace {

// What loads and stores share: the map, the 128-byte alignment of the shared address, the
// map's array and the box.
std::variant<TensorCopyPlan, std::string>
plan_box(const Program& prog, const launch::KernelConfig& config, uint64_t map_address,
         std::span<const int32_t> coords, uint64_t shared, bool load) {
  TensorCopyPlan plan;
  plan.map = tensor_map_at(prog, config, map_address);
  if (plan.map == nullptr) {
    return fmt::format("names the tensor map at {:#x}, which is no tensor-map field of a kernel "
                       "parameter (give the map in the manifest as a \"tensormap\" field of the "
                       "parameter, by its cuTensorMapEncodeTiled arguments)",
                       map_address);
  }
  if (shared % 128 != 0) {
    return fmt::format("{} shared address {:#x}, which is not 128-byte aligned (the PTX ISA "
                       "requires it: undefined behaviour)",
                       load ? "copies a tensor into" : "stores a tensor from", shared);
  }
  plan.array = config.find_array(plan.map->array);
  if (plan.array == nullptr)
    return fmt::format("names a tensor map of the unknown array '{}'", plan.map->array);
  plan.global_base = plan.array->base + plan.map->array_offset;
  auto box = tma_box(*plan.map, coords, shared);
  if (auto* why = std::get_if<std::string>(&box))
    return fmt::format("{} a tensor box that is not modelled: {}", load ? "loads" : "stores", *why);
  plan.box = std::move(std::get<TmaBox>(box));
  return plan;
}

} // namespace

std::variant<TensorCopyPlan, std::string>
plan_tensor_load(const Program& prog, const launch::KernelConfig& config, uint64_t map_address,
                 std::span<const int32_t> coords, uint64_t dst) {
  auto planned = plan_box(prog, config, map_address, coords, dst, /*load=*/true);
  if (std::holds_alternative<std::string>(planned))
    return planned;
  const TensorCopyPlan& plan = std::get<TensorCopyPlan>(planned);
  if (plan.array->kind != launch::ArrayKind::In && plan.array->kind != launch::ArrayKind::Index) {
    return fmt::format("loads a tensor of array '{}', which the launch lets the kernel write: a "
                       "write could race with the copy's asynchronous read (only read-only "
                       "arrays are modelled as TMA sources)",
                       plan.array->name);
  }
  if (plan.box.nan_fill) {
    for (const TmaBoxElement& e : plan.box.elements) {
      if (!e.global_offset) {
        return "fills an out-of-bounds element with NaN (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_"
               "ZERO_FMA: the fill's NaN bits are not modelled)";
      }
    }
  }
  return planned;
}

std::variant<TensorCopyPlan, std::string>
plan_tensor_store(const Program& prog, const launch::KernelConfig& config, uint64_t map_address,
                  std::span<const int32_t> coords, uint64_t src) {
  auto planned = plan_box(prog, config, map_address, coords, src, /*load=*/false);
  if (std::holds_alternative<std::string>(planned))
    return planned;
  const TensorCopyPlan& plan = std::get<TensorCopyPlan>(planned);
  if (plan.array->kind == launch::ArrayKind::In || plan.array->kind == launch::ArrayKind::Index) {
    return fmt::format("stores a tensor into array '{}', which the launch declares read-only ({}); "
                       "declare it out or inout",
                       plan.array->name, launch::to_string(plan.array->kind));
  }
  return planned;
}

} // namespace volta::exec
