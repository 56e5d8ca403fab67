// What a TMA tensor load (`cp.async.bulk.tensor...tile.mbarrier::complete_tx::bytes`) and a
// tensor store (`...global.shared::cta.bulk_group`) do, as far as both CTA machines (the symbolic
// CtaRunner, exec_tensor_load.cpp and exec_tensor_store.cpp, and the emulator,
// emulate/tensor_load.cpp and tensor_store.cpp) agree on it: which tensor map the instruction
// names, which box it copies (tma_box.hpp), from or to where in global memory, and what is
// refused. One definition, so that the machines cannot read a map or a box differently.
//
// The map operand is the generic address of a kernel parameter's tensor-map field (the
// `cvta.param` of a `__grid_constant__ CUtensorMap` parameter, or the parameter symbol itself):
// both machines map the parameter space into generic addresses as they are (cvta.param is the
// identity), so the address is the field's offset in the parameter buffer. The manifest gives
// the field by its cuTensorMapEncodeTiled arguments (launch/tensor_map.hpp); an address that is
// no such field is refused (its 128 bytes are the driver's undocumented encoding).
//
// The timing model, shared by both machines: the copy reads global memory and writes shared
// memory when it is issued, and its complete_tx(box bytes) is applied to the mbarrier then too.
// The hardware does both at some time between the issue and the completion of the phase the
// complete_tx counts in, so the machines accept only what holds for every such time:
// - the phase must not be able to complete without this copy's bytes: the mbarrier's tx-count
//   at the issue must already expect them (arrive.expect_tx / expect_tx before the copy, as
//   CUTLASS and CuTe do); otherwise the symbolic machine reports a schedule dependence (no
//   positive verdict) — a wrong expect_tx byte count is never passed as equivalent;
// - an access of the destination bytes by any thread (the issuing one included) that is not
//   ordered after the completion of that phase is a data race (the symbolic machine's race
//   check, mbarrier_order.hpp's "ordered after the completion");
// - the source must be an array no thread writes (In/Index): a write racing with the copy's
//   read of global memory is then impossible.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include "engine/exec/program.hpp"
#include "engine/exec/tma_box.hpp"
#include "engine/launch/launch_config.hpp"

namespace volta::exec {

struct TensorCopyPlan {
  const launch::TensorMap* map = nullptr;
  const launch::ArraySpec* array = nullptr; // the map's global array
  uint64_t global_base = 0;                 // the map's globalAddress
  TmaBox box;                               // its elements' global_offset are from global_base
};

// The tensor map whose field lies at parameter-buffer offset `address`, or null.
const launch::TensorMap* tensor_map_at(const Program& prog, const launch::KernelConfig& config,
                                       uint64_t address);

// The plan of a tensor load of the map at `map_address` at coordinates `coords` into shared
// address `dst`; or why it is refused (the caller reports it at the instruction, as
// unsupported). Out-of-bounds global reads are not checked here: each machine reads the box's
// in-bounds elements through its own memory access, which reports them.
std::variant<TensorCopyPlan, std::string>
plan_tensor_load(const Program& prog, const launch::KernelConfig& config, uint64_t map_address,
                 std::span<const int32_t> coords, uint64_t dst);

// The plan of a tensor store of the map at `map_address` at coordinates `coords` from shared
// address `src` (exec_tensor_store.cpp states its timing model): the box's in-bounds elements are
// written to global memory, the out-of-bounds ones skipped; or why it is refused.
std::variant<TensorCopyPlan, std::string>
plan_tensor_store(const Program& prog, const launch::KernelConfig& config, uint64_t map_address,
                  std::span<const int32_t> coords, uint64_t src);

} // namespace volta::exec
