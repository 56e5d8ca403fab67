// The family of each executable opcode: what kind of routine executes it. Both CTA machines (the
// symbolic CtaRunner, exec_dispatch.cpp, and the emulator's Cta, emulate/machine.cpp) dispatch
// on the family, so that a new XOp is classified here once, and a dispatcher that forgets a
// family is a -Wswitch warning; an XOp missing here is a compile error (the static_assert
// below). Within a family each machine still lists the opcodes whose semantics it defines (the
// integer, float, comparison and collective semantics differ by value domain).
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
  Call,           // call
  Branch,         // bra
  Exit,           // ret, exit: the thread leaves
  Trap,           // trap
  Barrier,        // bar.sync, bar.arrive (CTA barriers)
  ActiveMask,     // activemask: the lanes executing it now, no waiting
  WarpCollective, // bar.warp.sync, shfl, vote, ldmatrix, wmma, mma: every member lane arrives
  Unsupported,    // refused when executed (testp, and what lowering did not model)
};

namespace detail {
// Not constexpr: reaching it in a constant expression (an XOp left out of family_of) fails
// the static_assert below.
inline Family unlisted_xop() {
  return Family::Unsupported;
}
} // namespace detail

constexpr Family family_of(XOp op) {
  switch (op) {
  case XOp::Nop:
  case XOp::Fence:
  case XOp::Prefetch:
    return Family::NoEffect;
  case XOp::IAdd:
  case XOp::ISub:
  case XOp::IMulLo:
  case XOp::IMulHi:
  case XOp::IMulWide:
  case XOp::IMadLo:
  case XOp::IMadHi:
  case XOp::IMadWide:
  case XOp::IMul24Lo:
  case XOp::IMad24Lo:
  case XOp::IDiv:
  case XOp::IRem:
  case XOp::IAbs:
  case XOp::INeg:
  case XOp::IMin:
  case XOp::IMax:
  case XOp::And:
  case XOp::Or:
  case XOp::Xor:
  case XOp::Not:
  case XOp::CNot:
  case XOp::Shl:
  case XOp::Shr:
  case XOp::Popc:
  case XOp::Clz:
  case XOp::Brev:
  case XOp::Bfe:
  case XOp::Bfi:
  case XOp::Prmt:
  case XOp::Lop3:
  case XOp::ShfL:
  case XOp::ShfR:
  case XOp::Sad:
    return Family::Integer;
  case XOp::Setp:
  case XOp::Set:
    return Family::Compare;
  case XOp::Selp:
    return Family::Select;
  case XOp::FAdd:
  case XOp::FSub:
  case XOp::FMul:
  case XOp::FFma:
  case XOp::FDiv:
  case XOp::FRcp:
  case XOp::FSqrt:
  case XOp::FRsqrt:
  case XOp::FNeg:
  case XOp::FAbs:
  case XOp::FMin:
  case XOp::FMax:
  case XOp::FEx2:
  case XOp::FLg2:
  case XOp::FSin:
  case XOp::FCos:
  case XOp::FTanh:
  case XOp::FCopysign:
    return Family::Float;
  case XOp::Testp: // not modeled by either machine
    return Family::Unsupported;
  case XOp::Mov:
    return Family::Move;
  case XOp::Cvt:
    return Family::Convert;
  case XOp::Cvta:
    return Family::AddressConvert;
  case XOp::Ld:
    return Family::Load;
  case XOp::St:
    return Family::Store;
  case XOp::Atom:
  case XOp::Red:
    return Family::Atomic;
  case XOp::CpAsync:
    return Family::AsyncCopy;
  case XOp::CpAsyncCommit:
    return Family::AsyncCommit;
  case XOp::CpAsyncWait:
    return Family::AsyncWait;
  case XOp::Ldmatrix:
  case XOp::WmmaLoad:
  case XOp::WmmaStore:
  case XOp::WmmaMma:
  case XOp::Mma:
  case XOp::BarWarpSync:
  case XOp::Shfl:
  case XOp::Vote:
    return Family::WarpCollective;
  case XOp::Bra:
    return Family::Branch;
  case XOp::Call:
    return Family::Call;
  case XOp::Ret:
  case XOp::Exit:
    return Family::Exit;
  case XOp::Trap:
    return Family::Trap;
  case XOp::BarSync:
  case XOp::BarArrive:
    return Family::Barrier;
  case XOp::Activemask:
    return Family::ActiveMask;
  case XOp::Unsupported:
    return Family::Unsupported;
  }
  return detail::unlisted_xop();
}

// Warp collectives whose last source is a member mask (`.sync` with a mask): the lanes that
// synchronize are those the mask names; the other collectives synchronize every live lane.
constexpr bool has_member_mask(XOp op) {
  return op == XOp::BarWarpSync || op == XOp::Shfl || op == XOp::Vote;
}

namespace detail {
// XOp::Unsupported is the last opcode (program.hpp): every value up to it has a family.
constexpr bool every_xop_has_a_family() {
  for (int i = 0; i <= static_cast<int>(XOp::Unsupported); ++i)
    (void)family_of(static_cast<XOp>(i));
  return true;
}
static_assert(every_xop_has_a_family(), "an XOp has no Family in instruction_family.hpp");
} // namespace detail

} // namespace volta::exec
