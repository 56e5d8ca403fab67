// The family of each executable opcode: what kind of routine executes it. Both CTA machines (the
// symbolic CtaRunner, exec_dispatch.cpp, and the emulator's Cta, emulate/machine.cpp) dispatch
// on the family, so that a new XOp is classified once (instructions.def, whose family column
// this file reads), and a dispatcher that forgets a family is a -Werror=switch error. Within a
// family each machine still lists the opcodes whose semantics it defines (the integer, float,
// comparison and collective semantics differ by value domain).
#pragma once

#include <cstdint>

#include "engine/exec/program.hpp"

namespace volta::exec {

enum class Family : uint8_t {
  NoEffect,       // nop, fence, prefetch: nothing to execute
  Integer,        // integer and bit arithmetic
  Float,          // floating-point arithmetic
  Compare,        // setp, set
  Select,         // selp
  Move,           // mov
  Convert,        // cvt
  AddressConvert, // cvta
  Load,           // ld
  Store,          // st
  Atomic,         // atom, red
  AsyncCopy,      // cp.async
  AsyncCommit,    // cp.async.commit_group
  AsyncWait,      // cp.async.wait_group / wait_all
  TensorCopy,     // cp.async.bulk.tensor (TMA) loads and stores
  BulkGroup,      // cp.async.bulk.commit_group / wait_group: a thread's tensor-store groups
  Call,           // call
  Branch,         // bra
  Exit,           // ret, exit: the thread leaves
  Trap,           // trap
  Barrier,        // bar.sync, bar.arrive (CTA barriers)
  ActiveMask,     // activemask: the lanes executing it now, no waiting
  WarpCollective, // bar.warp.sync, shfl, vote, ldmatrix, wmma, mma: every member lane arrives
  Mbarrier,       // mbarrier objects in shared memory (cta_mbarriers.hpp)
  Unsupported,    // refused when executed (testp, and what lowering did not model)
};

// The family column of instructions.def: one per XOp by construction.
constexpr Family family_of(XOp op) {
  switch (op) {
#define XOP(name, family)                                                                          \
  case XOp::name:                                                                                  \
    return Family::family;
#include "engine/exec/instructions.def"
#undef XOP
  }
  return Family::Unsupported; // not reached: the switch lists every XOp (-Werror=switch)
}

// Warp collectives whose last source is a member mask (`.sync` with a mask): the lanes that
// synchronize are those the mask names; the other collectives synchronize every live lane.
constexpr bool has_member_mask(XOp op) {
  return op == XOp::BarWarpSync || op == XOp::Shfl || op == XOp::Vote || op == XOp::Elect ||
         op == XOp::Redux || op == XOp::Match;
}

} // namespace volta::exec
