// The CTA runner's dispatch: every decoded instruction to the routine that executes it, and warp
// collectives (every member lane arrives first, then the collective acts as a sync of its lanes).
// The semantics of values (integers, floats, comparisons, conversions) are in exec_values.cpp,
// memory in exec_memory.cpp, warp data movement in exec_warp.cpp, CTA barriers in
// exec_barrier.cpp.
#include <bit>
#include <fmt/format.h>

#include "engine/exec/cta_runner.hpp"
#include "engine/exec/instruction_family.hpp"

namespace volta::exec {

using symbolic::Op;
// ---------------------------------------------------------------------------------------------
// Dispatch
// ---------------------------------------------------------------------------------------------

std::optional<bool> CtaRunner::decide_predicate(ExprId pred) {
  auto decided = signs_.decide(pred);
  if (decided)
    control_roots_.insert(pred);
  return decided;
}

void CtaRunner::execute(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t issued = mask;
  next_pc_ = kNoPc;
  bool merged = false; // lanes whose guard is on data took both sides
  if (in.has_guard) {
    uint32_t active = 0;
    uint32_t data_lanes = 0;
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
      const uint32_t t = base + l;
      const Value g = reg_value(in.guard_reg, t);
      std::optional<uint64_t> p;
      if (g.symbolic() && g.node != ctx_.undef) {
        // Inside a side of a merged branch a decision would be recorded as if every input took
        // that side; there the guard is merged instead, and the prover decides the select.
        if (auto d = merge_depth_ == 0 ? decide_predicate(g.node) : std::nullopt) {
          p = *d ? 1 : 0;
        } else if ((ctx_.store.taint(g.node) &
                    (symbolic::kTaintUndef | symbolic::kTaintAtomicResult |
                     symbolic::kTaintSchedule)) == 0 &&
                   ctx_.store.op(g.node) != Op::RawBits) {
          data_lanes |= 1u << (t - base); // both sides, merged below
          continue;
        }
      }
      if (!p)
        p = concrete(g, t, "the guard predicate of an instruction");
      if (!p)
        return;
      const bool on = ((*p & 1u) != 0) != in.guard_negated;
      if (on) {
        active |= 1u << l;
      } else {
        ++pc_[t];
      }
    }
    // Lanes whose guard is a predicate on data the signs do not decide: each executes both
    // possibilities and merges them (exec_branch_merge.cpp).
    merged = data_lanes != 0;
    for (uint32_t m = data_lanes; m != 0; m &= m - 1) {
      const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
      const ExprId g = node(in.guard_reg, base + l);
      const ExprId cond = in.guard_negated ? b_.bool_not(g) : g;
      const bool ok = in.op == XOp::Bra ? merge_data_branch(in, pc, w, l, cond)
                                        : merge_predicated(in, pc, w, l, cond);
      if (!ok)
        return;
    }
    next_pc_ = kNoPc; // the merged lanes' steps ran through execute() too
    mask = active;
    if (mask == 0) {
      if (!merged)
        next_pc_ = pc + 1; // every lane's guard was off: each moved on by one
      return;
    }
  }

  auto advance = [&](uint32_t m) {
    for (; m != 0; m &= m - 1)
      ++pc_[base + std::countr_zero(m)];
  };

  if (wgmma_ && !wgmma_->warps[w].empty() && !wgmma_accumulators_untouched(in, w, mask))
      [[unlikely]]
    return;
  switch (family_of(in.op)) {
  case Family::NoEffect:
    if (in.op == XOp::Fence && in.sub == kFenceProxyAsync && wgmma_)
      note_proxy_fence(w, mask);
    break;
  case Family::Integer:
    exec_integer(in, w, mask);
    break;
  case Family::Float:
    exec_float(in, w, mask);
    break;
  case Family::Compare:
    exec_setp(in, w, mask);
    break;
  case Family::Select:
    exec_selp(in, w, mask);
    break;
  case Family::Move:
    exec_mov(in, w, mask);
    break;
  case Family::Convert:
    exec_cvt(in, w, mask);
    break;
  case Family::AddressConvert:
    exec_cvta(in, w, mask);
    break;
  case Family::Load:
    exec_ld(in, w, mask);
    break;
  case Family::Store:
    exec_st(in, w, mask);
    break;
  case Family::Atomic:
    exec_atom(in, w, mask);
    break;
  case Family::AsyncCopy:
    exec_cp_async(in, w, mask);
    break;
  case Family::TensorCopy:
    if (in.op == XOp::TensorStore)
      exec_tensor_store(in, w, mask);
    else
      exec_tensor_load(in, w, mask);
    break;
  case Family::BulkGroup:
    exec_bulk_group(in, w, mask);
    break;
  case Family::AsyncCommit:
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint32_t t = base + std::countr_zero(m);
      committed_[t].push_back(std::move(uncommitted_[t]));
      uncommitted_[t].clear();
    }
    break;
  case Family::AsyncWait:
    exec_cp_async_wait(in, w, mask);
    break;
  case Family::Call:
    exec_call(in, w, mask);
    break;
  case Family::Branch:
    take_branch(pc_.data(), w, mask, in.target);
    if (mask == issued && !merged)
      next_pc_ = in.target;
    return;
  case Family::Exit:
    exit_lanes(*this, w, mask);
    return;
  case Family::Trap:
    fail(Verdict::Error, "trap",
         fmt::format("the kernel executed 'trap' (PTX line {}), aborting the launch", in.line),
         base + std::countr_zero(mask));
    return;
  case Family::Barrier:
    exec_bar(in, pc, w, mask);
    return; // exec_bar sets states and pcs
  case Family::ActiveMask:
    // activemask returns the lanes executing it now: no waiting.
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint32_t t = base + std::countr_zero(m);
      set_dst(in.dsts[0], t, Value{mask, 0});
    }
    break;
  case Family::WarpCollective: {
    // Warp collectives: wait until every member lane has arrived. Lanes that have exited may be
    // named in a member mask: they simply do not take part.
    uint32_t members = existing_lanes(w) & ~exited_lanes(w);
    uint32_t member_mask = kAll;
    if (has_member_mask(in.op)) {
      if (!member_group(in, w, mask, member_mask))
        return;
      members &= member_mask;
    }
    if (!gather_collective(in, pc, w, mask, members, member_mask))
      return;
    // A .sync collective acts as a sync of its lanes on both sides (docs/semantics.md,
    // "Synchronization and asynchronous copies"): every member has arrived before the collective's
    // own accesses happen (a wmma.store after the lanes' reads of the previous tile), and they are
    // complete before any member goes on (lanes reading what the wmma.store wrote).
    warp_synchronized(w, mask);
    switch (in.op) {
    case XOp::Shfl:
      exec_shfl(in, w, mask);
      break;
    case XOp::Vote:
      exec_vote(in, w, mask);
      break;
    case XOp::Redux:
      exec_redux(in, w, mask);
      break;
    case XOp::Match:
      exec_match(in, w, mask);
      break;
    case XOp::Ldmatrix:
      exec_ldmatrix(in, w, mask);
      break;
    case XOp::WmmaLoad:
      exec_wmma_load(in, w, mask);
      break;
    case XOp::WmmaStore:
      exec_wmma_store(in, w, mask);
      break;
    case XOp::WmmaMma:
      exec_wmma_mma(in, w, mask);
      break;
    case XOp::Mma:
      exec_mma(in, w, mask);
      break;
    case XOp::Wgmma:
      exec_wgmma(in, w, mask);
      break;
    case XOp::WgmmaFence:
    case XOp::WgmmaCommit:
    case XOp::WgmmaWait:
      if (!wgmma_) // no wgmma.mma_async in the program: nothing in flight
        break;
      exec_wgmma_sync(in, w, mask);
      break;
    case XOp::Stmatrix:
      exec_stmatrix(in, w, mask);
      break;
    case XOp::BarWarpSync:
      break; // a sync and nothing else
    case XOp::Elect:
      exec_elect(in, w, mask);
      break;
    case XOp::Setmaxnreg:
      if (!exec_setmaxnreg(in, pc, w, mask))
        return;
      break;
    default:
      // A WarpCollective-family instruction (instructions.def) without a case here: refused,
      // never a collective that silently does nothing.
      fail_unsupported(in, base + std::countr_zero(mask),
                       "is a warp collective without symbolic semantics in the engine");
      return;
    }
    if (failed_)
      return;
    warp_synchronized(w, mask);
    ++stats_.warp_syncs;
    advance(mask);
    return; // lanes of the warp may have waited here: no hint of the next pc
  }
  case Family::Mbarrier:
    exec_mbarrier(in, pc, w, mask);
    return; // exec_mbarrier moves the lanes on (or blocks them): no hint of the next pc
  case Family::Unsupported: {
    const auto reason = prog_.unsupported_reasons.find(pc);
    fail_unsupported(in, base + std::countr_zero(mask),
                     reason != prog_.unsupported_reasons.end() ? reason->second
                                                               : "is not supported by the engine");
    return;
  }
  }
  if (failed_)
    return;
  advance(mask);
  // The lanes the guard turned off moved on by one as well.
  if (!merged)
    next_pc_ = pc + 1;
}

bool CtaRunner::member_group(const Inst& in, uint32_t w, uint32_t& mask, uint32_t& member_mask) {
  // Which verdict: a collective whose lanes do not agree on who synchronizes is an invalid
  // synchronization, reported like a barrier that threads reach inconsistently
  // (BARRIER_DIVERGENCE, as for an invalid bar.sync thread count): it is neither a deadlock
  // (it may well complete on a GPU) nor a race on a memory location.
  const uint32_t base = w * 32;
  const std::optional<MemberGroup> group =
      exec::member_group(mask, [&](uint32_t l) -> std::optional<uint32_t> {
        const auto mm = concrete_operand(in.srcs.back(), base + l, "a member mask");
        if (!mm)
          return std::nullopt;
        return static_cast<uint32_t>(*mm);
      });
  if (!group)
    return false;
  if (!group->problem.empty()) {
    const uint32_t t = base + group->problem_lane;
    fail(Verdict::BarrierDivergence, "invalid warp synchronization",
         fmt::format("'{}' (PTX line {}), thread {}: {}", in.text, in.line, t, group->problem), t);
    return false;
  }
  mask = group->lanes;
  member_mask = group->member_mask;
  return true;
}

bool CtaRunner::gather_collective(const Inst& in, uint32_t pc, uint32_t w, uint32_t& mask,
                                  uint32_t members, uint32_t member_mask) {
  const uint32_t base = w * 32;
  const bool has_mask = has_member_mask(in.op);
  auto check = [&](uint32_t t, bool same_point) {
    const Inst& other = prog_.insts[pc_[t]];
    if (!same_point) {
      // shfl.sync / vote.sync lanes with the same mask waiting at two different instructions:
      // the PTX ISA (sm_70+) asks for the same qualifiers and mask, CUDA for the same call;
      // which pairs of instructions hardware matches is not modeled. Refuse rather than call
      // it a deadlock.
      if (has_mask && other.op == in.op) {
        const Value v = read(other.srcs.back(), t);
        if (!v.symbolic() && static_cast<uint32_t>(v.bits) == member_mask) {
          fail_unsupported(in, base + std::countr_zero(mask),
                           fmt::format("is executed by lanes of one member mask 0x{:08x} at two "
                                       "different instructions (PTX lines {} and {}); whether they "
                                       "meet is not modeled",
                                       member_mask, in.line, other.line));
          return WaitingLane::Stop;
        }
      }
      return WaitingLane::Skip;
    }
    if (has_mask) {
      const Value v = read(other.srcs.back(), t);
      const uint32_t lane_mask = static_cast<uint32_t>(v.bits);
      if (v.symbolic() || lane_mask != member_mask) {
        fail(Verdict::BarrierDivergence, "invalid warp synchronization",
             fmt::format("lanes {} and {} synchronize at '{}' (PTX line {}) and '{}' (PTX line {}) "
                         "with different member masks (0x{:08x} and 0x{:08x}) that name each "
                         "other: undefined behaviour",
                         std::countr_zero(mask), t - base, in.text, in.line, other.text, other.line,
                         member_mask, lane_mask),
             t);
        return WaitingLane::Stop;
      }
    }
    return WaitingLane::Join;
  };
  return gather_collective_lanes(prog_, state_.data(), pc_.data(), base, pc, mask, members, check);
}

void CtaRunner::warp_synchronized(uint32_t w, uint32_t members) {
  // Every sync starts a new phase of the warp. One over every live lane orders all earlier
  // accesses of the warp's lanes with all later ones; a partial-mask sync orders its members
  // only, and is logged for the race check to follow chains of them (race_shadow.hpp).
  const uint32_t live = existing_lanes(w) & ~exited_lanes(w);
  WarpSyncLog& log = warp_syncs_[w];
  ++warp_phase_[w];
  if ((members & live) == live) {
    log.full_phase = warp_phase_[w];
    log.masks.clear();
    named_.warp_synced(w, live); // what a lane acquired alone now orders every lane
  } else {
    log.masks.push_back(members);
  }
}

} // namespace volta::exec
