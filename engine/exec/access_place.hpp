// Where an access lands, outside global memory: the generic address windows, and the bounds of
// the shared, local, parameter and constant spaces. One definition for both CTA machines (the
// symbolic CtaRunner, exec_memory.cpp, and the emulator's Cta, emulate/machine.cpp), so that an
// access one of them calls out of bounds is out of bounds for the other as well. Global memory
// is each machine's own (symbolic byte cells, concrete pages), and so is what a machine refuses
// (a write to a parameter or to constant memory) and how it reports.
#pragma once

#include <cstdint>
#include <utility>

#include "engine/exec/address_map.hpp"
#include "engine/exec/program.hpp"
#include "engine/exec/variable_extents.hpp"

namespace volta::exec {

// The space and the address within it of a generic address (const addresses keep the window).
inline std::pair<Space, uint64_t> resolve_generic(uint64_t a) {
  if (in_window(a, kSharedWindow))
    return {Space::Shared, a - kSharedWindow};
  if (in_window(a, kLocalWindow))
    return {Space::Local, a - kLocalWindow};
  if (in_window(a, kConstWindow))
    return {Space::Const, a};
  return {Space::Global, a};
}

// [address, address + size) of shared memory (`shared_bytes` of it) inside one variable.
inline bool inside_shared(const VariableExtents& extents, uint64_t shared_bytes, uint64_t address,
                          uint32_t size) {
  return extent_holding(extents.shared, address, size) != kNoExtent &&
         address + size <= shared_bytes;
}

// [address, address + size) of a thread's local memory inside one variable.
inline bool inside_local(const Program& prog, const VariableExtents& extents, uint64_t address,
                         uint32_t size) {
  return extent_holding(extents.local, address, size) != kNoExtent &&
         address + size <= prog.local_bytes;
}

// [address, address + size) of constant memory (`const_bytes` from the const window on).
inline bool inside_const(uint64_t const_bytes, uint64_t address, uint32_t size) {
  return address >= kConstWindow && address - kConstWindow + size <= const_bytes;
}

// The part of the parameter space an access lands in: inside one kernel parameter (the padding
// between parameters, and after a struct, holds no value the host passed: reading it is out of
// bounds, not zeros), in a thread's call-sequence `.param` scratch (from param_bytes on), or
// outside both.
enum class ParamArea : uint8_t { KernelParam, CallScratch, Outside };
ParamArea param_area(const Program& prog, uint64_t address, uint32_t size);

} // namespace volta::exec
