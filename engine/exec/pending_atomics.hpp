// Atomic read-modify-writes whose order does not matter (add, min, max, and, or, xor, and
// inc/dec with one limit, which apply the same function every time): each
// contribution is kept with who made it, and the final value is built when the location is
// next read with a plain load (or at the end of the launch), in (CTA, thread, sequence) order.
// The result is therefore the same whatever the schedule, and commutes exactly as the
// operation does over the reals.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/exec/byte_cells.hpp"
#include "engine/exec/program.hpp"

namespace volta::exec {

struct AtomicContribution {
  uint32_t cta = 0;
  uint32_t thread = 0;
  uint64_t sequence = 0;
  Value value;
};

struct PendingAtomic {
  AtomOp op = AtomOp::Add;
  ValType type = ValType::None;
  uint32_t width = 4; // bytes
  Value base;         // the value before the first contribution
  std::vector<AtomicContribution> contributions;
};

// The value of the location after every contribution. `real_of` turns a value into a real
// (float types) and `int_real` into an integer-valued real.
Value materialize(PendingAtomic& pending, symbolic::Builder& b, ExprId undef);

} // namespace volta::exec
