// What redux.sync and match.sync give each member lane from the member lanes' operands, for
// concrete values: one definition for both CTA machines (the symbolic CtaRunner, exec_warp.cpp,
// which builds the same operations as nodes where an operand depends on data, and the
// emulator, emulate/warp_ops.cpp).
//
// PTX ISA, "redux.sync" and "match.sync": redux reduces the operands of the lanes of its member
// mask (add wraps modulo 2^32; min and max by the type's signedness; and, or, xor bitwise) and
// gives every member the result; match.any gives lane l the mask of the members whose operand
// equals l's, match.all gives every member the member mask and true when all the members'
// operands are equal, else 0 and false. Exited lanes named in a mask take no part (as in every
// collective of both machines).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

#include "engine/exec/program.hpp"

namespace volta::exec {

// The reduction of values[l] over the lanes l of `members` (at least one).
inline uint32_t redux_value(AtomOp op, bool is_signed, uint32_t members,
                            const std::array<uint32_t, 32>& values) {
  uint32_t acc = values[static_cast<uint32_t>(std::countr_zero(members))];
  for (uint32_t m = members & (members - 1); m != 0; m &= m - 1) {
    const uint32_t v = values[static_cast<uint32_t>(std::countr_zero(m))];
    switch (op) {
    case AtomOp::Add:
      acc += v;
      break;
    case AtomOp::Min:
      acc =
          is_signed
              ? static_cast<uint32_t>(std::min(static_cast<int32_t>(acc), static_cast<int32_t>(v)))
              : std::min(acc, v);
      break;
    case AtomOp::Max:
      acc =
          is_signed
              ? static_cast<uint32_t>(std::max(static_cast<int32_t>(acc), static_cast<int32_t>(v)))
              : std::max(acc, v);
      break;
    case AtomOp::And:
      acc &= v;
      break;
    case AtomOp::Or:
      acc |= v;
      break;
    case AtomOp::Xor:
      acc ^= v;
      break;
    case AtomOp::Inc: // not redux operations (lower.cpp gives none of these)
    case AtomOp::Dec:
    case AtomOp::Exch:
    case AtomOp::Cas:
      break;
    }
  }
  return acc;
}

// match.any: the members whose operand equals lane `lane`'s.
inline uint32_t match_any_mask(uint32_t members, const std::array<uint64_t, 32>& values,
                               uint32_t lane) {
  uint32_t out = 0;
  for (uint32_t m = members; m != 0; m &= m - 1) {
    const auto j = static_cast<uint32_t>(std::countr_zero(m));
    if (values[j] == values[lane])
      out |= 1u << j;
  }
  return out;
}

// match.all: whether every member's operand is the same.
inline bool match_all(uint32_t members, const std::array<uint64_t, 32>& values) {
  const uint64_t first = values[static_cast<uint32_t>(std::countr_zero(members))];
  for (uint32_t m = members; m != 0; m &= m - 1) {
    if (values[static_cast<uint32_t>(std::countr_zero(m))] != first)
      return false;
  }
  return true;
}

} // namespace volta::exec
