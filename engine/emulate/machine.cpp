// The emulator's CTA: the hooks of the shared run loop (exec/cta_schedule.hpp), dispatch, memory
// and calls.
#include "engine/emulate/machine.hpp"

#include <algorithm>
#include <bit>
#include <fmt/format.h>
#include <tuple>

#include "engine/exec/access_place.hpp"
#include "engine/exec/address_map.hpp"
#include "engine/exec/cta_schedule.hpp"
#include "engine/exec/instruction_family.hpp"
#include "engine/exec/region_map.hpp"
#include "engine/exec/special_registers.hpp"
#include "support/invariant.hpp"

namespace volta::emulate {

using exec::Family;
using exec::Inst;
using exec::OpKind;
using exec::Space;
using exec::ValType;
using exec::XOp;

GlobalRegion* LaunchState::find(uint64_t address, uint64_t size) {
  return exec::region_holding(regions.data(), regions.data() + regions.size(), address, size,
                              [](const GlobalRegion& r) { return r.size(); });
}

Cta::Cta(LaunchState& launch, uint32_t index)
    : launch_(launch), prog_(launch.prog), cta_(index),
      threads_(static_cast<uint32_t>(launch.config.threads_per_cta())),
      warps_((threads_ + 31) / 32), warp_paths_(!launch.options.lane_by_lane) {
  const auto& g = launch.config.grid;
  ctaid_[0] = index % g[0];
  ctaid_[1] = (index / g[0]) % g[1];
  ctaid_[2] = index / (g[0] * g[1]);
  regs_.assign(prog_.registers.size() * size_t{threads_}, 0);
  for (const auto& r : prog_.registers)
    reg_width_.push_back(r.type == ValType::Pred ? 1
                                                 : std::max<uint32_t>(8, exec::width_of(r.type)));
  pc_.assign(threads_, 0);
  state_.assign(threads_, State::Running);
  barriers_.reset(threads_);
  warpgroups_.reset(threads_);
  mbar_wait_.assign(threads_, {0, 0});
  shared_.assign(prog_.shared_dynamic_base + launch.config.dyn_shared_bytes, 0);
  extents_ = exec::variable_extents(prog_, launch.config.dyn_shared_bytes);
  shared_written_.assign(shared_.size(), 0);
  local_.assign(size_t{threads_} * prog_.local_bytes, 0);
  local_written_.assign(local_.size(), 0);
  scratch_.assign(size_t{threads_} * prog_.scratch_param_bytes, 0);
}

// ---------------------------------------------------------------------------------------------
// Registers and operands
// ---------------------------------------------------------------------------------------------

uint64_t Cta::special(exec::Special s, uint32_t t) {
  if (const auto v = exec::launch_special_value(s, launch_.config, ctaid_, t))
    return *v;
  // %warpid, %smid, %clock ... depend on the hardware and the schedule.
  throw Trouble("unsupported", "reads a hardware- or schedule-dependent special register, "
                               "which the emulator does not model");
}

uint64_t Cta::read(const exec::Operand& o, uint32_t t, ValType as) {
  switch (o.kind) {
  case OpKind::Reg: {
    const uint64_t v = reg(o.reg, t);
    return o.negated ? (~v & 1u) : v;
  }
  case OpKind::Imm:
    if (o.imm_is_float && exec::is_float(as) && as != ValType::F16x2 && as != ValType::BF16x2) {
      const FloatFormat f = float_format(as);
      // An immediate of the operation's own width is its bits (a NaN keeps its sign and
      // payload: mov.f32 of 0fFFA00000 is not the canonical NaN; fuzzer 17:54685); one of
      // another width is converted to the operation's format.
      if (static_cast<uint32_t>(o.imm_width) == format_bits(f))
        return o.imm;
      const double v = o.imm_width == 64
                           ? std::bit_cast<double>(o.imm)
                           : double{std::bit_cast<float>(static_cast<uint32_t>(o.imm))};
      return encode(f, v, RoundMode::NearestEven);
    }
    return o.imm;
  case OpKind::Special:
    return special(static_cast<exec::Special>(o.special), t);
  default:
    throw Trouble("unsupported", "reads an operand the emulator cannot evaluate");
  }
}

void Cta::write(const exec::Operand& d, uint32_t t, uint64_t bits) {
  if (d.kind != OpKind::Reg)
    return; // a sink `_`
  reg(d.reg, t) = low_bits(bits, reg_width_[d.reg]);
}

// ---------------------------------------------------------------------------------------------
// Scheduling
// ---------------------------------------------------------------------------------------------

void Cta::run() {
  (void)exec::run_cta(*this); // stops only by throwing
  if (auto problem = warpgroups_.finished())
    throw Trouble("barrier divergence", *problem);
}

void Cta::stuck() {
  uint32_t t = 0;
  while (t < threads_ && state_[t] == State::Exited)
    ++t;
  pc_now_ = pc_[t];
  thread_now_ = t;
  std::string where = state_[t] == State::AtBarrier ? barriers_.describe(barriers_.id_of(t), state_)
                                                    : std::string("a warp collective");
  if (state_[t] == State::AtMbarrier) {
    where = fmt::format("'{}' (PTX line {}) for phase {} of {}", prog_.insts[pc_[t]].text,
                        prog_.insts[pc_[t]].line, mbar_wait_[t].second,
                        mbarriers_.describe(mbar_wait_[t].first));
  }
  throw Trouble("deadlock",
                fmt::format("no thread can run: thread {} waits at {} forever", t, where));
}

void Cta::stop_running() {
  if (launch_.options.max_instructions != 0 &&
      launch_.instructions > launch_.options.max_instructions) {
    throw Trouble("instruction budget", fmt::format("stopped after {} executed instructions (the "
                                                    "budget)",
                                                    launch_.options.max_instructions));
  }
  throw Trouble("cancelled", "stopped: the run was cancelled");
}

uint32_t Cta::collective_members(const Inst& in, uint32_t w, uint32_t& mask) {
  const uint32_t existing = exec::existing_lanes_of(threads_, w);
  const uint32_t live = existing & ~exited_lanes(w);
  if (!exec::has_member_mask(in.op))
    return live;
  // The lanes of one member mask execute together; lanes of a disjoint mask at the same
  // instruction run as their own group next (exec::member_group, as in the symbolic CTA).
  const uint32_t base = w * 32;
  const std::optional<exec::MemberGroup> group =
      exec::member_group(mask, [&](uint32_t l) -> std::optional<uint32_t> {
        return static_cast<uint32_t>(read(in.srcs.back(), base + l, ValType::B32));
      });
  VOLTA_ASSERT(group.has_value(), "the emulator reads every member mask");
  if (!group->problem.empty()) {
    thread_now_ = base + group->problem_lane;
    throw Trouble("undefined", group->problem);
  }
  mask = group->lanes;
  const uint32_t named = group->member_mask;
  if ((named & ~existing) != 0)
    throw Trouble("undefined",
                  fmt::format("member mask {:#x} names a lane the CTA does not have", named));
  return named & live; // exited lanes may be named (they no longer take part)
}

bool Cta::gather(uint32_t pc, uint32_t w, uint32_t& mask, uint32_t members) {
  // Every member lane waiting at this collective takes part.
  return exec::gather_collective_lanes(
      prog_, state_.data(), pc_.data(), w * 32, pc, mask, members, [](uint32_t, bool same_point) {
        return same_point ? exec::WaitingLane::Join : exec::WaitingLane::Skip;
      });
}

void Cta::step(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t scheduled = mask;
  next_pc_ = exec::kNoPcHint;
  if (in.has_guard) {
    uint32_t on = 0;
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint32_t l = std::countr_zero(m);
      if (((reg(in.guard_reg, base + l) & 1u) != 0) != in.guard_negated)
        on |= 1u << l;
      else
        ++pc_[base + l];
    }
    mask = on;
    if (mask == 0)
      return;
  }
  auto each = [&](auto&& fn) {
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      thread_now_ = base + std::countr_zero(m);
      fn(thread_now_);
    }
  };
  auto advance = [&] {
    for (uint32_t m = mask; m != 0; m &= m - 1)
      ++pc_[base + std::countr_zero(m)];
  };
  switch (exec::family_of(in.op)) {
  case Family::NoEffect:
  case Family::AsyncCommit: // copies complete at issue (see exec_cp_async)
  case Family::AsyncWait:
  case Family::BulkGroup: // tensor stores complete at issue (tensor_store.cpp)
    break;
  case Family::Integer:
    if (!warp_paths_ || !generic_warp(in, pc, w, mask))
      each([&](uint32_t t) { exec_integer(in, t); });
    break;
  case Family::Float:
    if (!warp_paths_ || (!float_warp(in, pc, w, mask) && !generic_warp(in, pc, w, mask)))
      each([&](uint32_t t) { exec_float(in, t); });
    break;
  case Family::Compare:
    if (!warp_paths_ || !generic_warp(in, pc, w, mask))
      each([&](uint32_t t) { exec_setp(in, t); });
    break;
  case Family::Select:
    if (!warp_paths_ || !generic_warp(in, pc, w, mask))
      each([&](uint32_t t) { exec_selp(in, t); });
    break;
  case Family::Move:
    if (!warp_paths_ || !generic_warp(in, pc, w, mask))
      each([&](uint32_t t) { exec_mov(in, t); });
    break;
  case Family::Convert:
    if (!warp_paths_ || !convert_warp(in, pc, w, mask))
      each([&](uint32_t t) { exec_cvt(in, t); });
    break;
  case Family::AddressConvert:
    each([&](uint32_t t) { exec_cvta(in, t); });
    break;
  case Family::Load:
    if (!warp_paths_ || !load_warp(in, w, mask))
      each([&](uint32_t t) { exec_ld(in, t); });
    break;
  case Family::Store:
    if (!warp_paths_ || !store_warp(in, w, mask))
      each([&](uint32_t t) { exec_st(in, t); });
    break;
  case Family::Atomic:
    each([&](uint32_t t) { exec_atom(in, t); });
    break;
  case Family::AsyncCopy:
    each([&](uint32_t t) { exec_cp_async(in, t); });
    break;
  case Family::TensorCopy:
    if (in.op == XOp::TensorStore)
      each([&](uint32_t t) { exec_tensor_store(in, t); });
    else
      each([&](uint32_t t) { exec_tensor_load(in, t); });
    break;
  case Family::Call:
    each([&](uint32_t t) { exec_call(in, t); });
    break;
  case Family::Branch: {
    exec::take_branch(pc_.data(), w, mask, in.target);
    // A uniform branch leaves the scheduled lanes together: the scheduler's next pc.
    const uint32_t first = pc_[base + static_cast<uint32_t>(std::countr_zero(scheduled))];
    bool together = true;
    for (uint32_t m = scheduled; m != 0; m &= m - 1)
      together = together && pc_[base + static_cast<uint32_t>(std::countr_zero(m))] == first;
    if (together && warp_paths_)
      next_pc_ = first;
    return;
  }
  case Family::Exit:
    exec::exit_lanes(*this, w, mask);
    return;
  case Family::Trap:
    throw Trouble("trap", "the kernel executed 'trap'");
  case Family::Barrier:
    exec_bar(in, pc, w, mask);
    return;
  case Family::ActiveMask:
    each([&](uint32_t t) { write(in.dsts[0], t, mask); });
    break;
  case Family::WarpCollective: {
    const uint32_t members = collective_members(in, w, mask);
    if (!gather(pc, w, mask, members))
      return;
    if (in.op == XOp::Shfl)
      exec_shfl(in, w, mask);
    else if (in.op == XOp::Vote)
      exec_vote(in, w, mask);
    else if (in.op == XOp::Redux)
      exec_redux(in, w, mask);
    else if (in.op == XOp::Match)
      exec_match(in, w, mask);
    else if (in.op == XOp::Ldmatrix)
      exec_ldmatrix(in, w, mask);
    else if (in.op == XOp::Mma)
      exec_mma(in, w, mask);
    else if (in.op == XOp::WmmaLoad || in.op == XOp::WmmaStore || in.op == XOp::WmmaMma)
      exec_wmma(in, w, mask);
    else if (in.op == XOp::Wgmma)
      exec_wgmma(in, w, mask);
    else if (in.op == XOp::WgmmaFence || in.op == XOp::WgmmaCommit || in.op == XOp::WgmmaWait)
      exec_wgmma_sync(in, w, mask);
    else if (in.op == XOp::Stmatrix)
      exec_stmatrix(in, w, mask);
    else if (in.op == XOp::Elect)
      exec_elect(in, w, mask);
    else if (in.op == XOp::Setmaxnreg)
      exec_setmaxnreg(in, pc, w, mask);
    else if (in.op != XOp::BarWarpSync) // a WarpCollective-family row without a case here
      throw Trouble("unsupported", "this warp collective is not supported by the emulator");
    break;
  }
  case Family::Mbarrier:
    exec_mbarrier(in, pc, w, mask);
    return; // exec_mbarrier moves the lanes on (or blocks them)
  case Family::Unsupported:
    throw Trouble("unsupported", "this instruction is not supported by the emulator");
  }
  advance();
  // Every scheduled lane is at pc + 1 now (the guarded-off ones moved on above), and no lane
  // changed state, except after a collective (it may have waited, or released waiting lanes),
  // a call, or a copy that may complete an mbarrier's transactions (and wake its waiters).
  const Family family = exec::family_of(in.op);
  if (family != Family::WarpCollective && family != Family::Call && family != Family::TensorCopy &&
      family != Family::AsyncCopy && warp_paths_)
    next_pc_ = pc + 1;
}

uint64_t Cta::mbarrier_address(const Inst& in, uint32_t t) {
  // An mbarrier is in the CTA's own shared memory: a shared address, or a generic one that
  // resolves there.
  uint64_t a = address(in.mem[0], t);
  Space space = in.space;
  if (space == Space::Generic)
    std::tie(space, a) = exec::resolve_generic(a);
  if (space != Space::Shared)
    throw Trouble("undefined", fmt::format("an mbarrier operation on {:#x}, which is not shared "
                                           "memory",
                                           a));
  in_mbarrier_op_ = true; // its own bytes: bounds and alignment only
  (void)locate(Space::Shared, a, exec::CtaMbarriers::kBytes, t, false);
  in_mbarrier_op_ = false;
  return a;
}

void Cta::exec_mbarrier(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  // Each lane operates on its barrier in lane order (the emulator's one schedule; the symbolic
  // CTA runs them the same way, engine/exec/exec_mbarrier.cpp).
  const uint32_t base = w * 32;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    thread_now_ = t;
    const uint64_t a = mbarrier_address(in, t);
    auto operand = [&](size_t i, uint64_t absent) {
      return in.srcs.size() > i ? read(in.srcs[i], t, ValType::U32) & 0xffffffffu : absent;
    };
    exec::CtaMbarriers::Outcome o;
    switch (in.op) {
    case XOp::MbarInit:
      o = mbarriers_.init(a, operand(0, 0));
      break;
    case XOp::MbarInval:
      o = mbarriers_.inval(a);
      break;
    case XOp::MbarArrive: {
      const bool tx = (in.sub & exec::kMbarExpectTx) != 0;
      o = mbarriers_.arrive(a, tx ? 1 : operand(0, 1), tx ? operand(0, 0) : 0,
                            (in.sub & exec::kMbarDrop) != 0);
      if (o.ok())
        write(in.dsts[0], t, o.token);
      break;
    }
    case XOp::MbarTx:
      o = (in.sub & exec::kMbarComplete) != 0 ? mbarriers_.complete_tx(a, operand(0, 0))
                                              : mbarriers_.expect_tx(a, operand(0, 0));
      break;
    case XOp::MbarWait: {
      const bool parity = (in.sub & exec::kMbarParity) != 0;
      const uint64_t v = read(in.srcs[0], t, parity ? ValType::U32 : ValType::B64);
      std::string problem;
      const std::optional<bool> done =
          parity ? mbarriers_.parity_done(a, v, &problem) : mbarriers_.token_done(a, v, &problem);
      if (!done)
        throw Trouble("undefined", problem);
      if (*done) {
        write(in.dsts[0], t, 1);
        pc_[t] = pc + 1;
      } else {
        // Blocked until the phase completes (the exact-wait form, lowering's
        // refuse_inexact_waits): the phase it waits for is the current one.
        state_[t] = State::AtMbarrier;
        mbar_wait_[t] = {a, mbarriers_.find(a)->phase};
      }
      continue;
    }
    default:
      throw Trouble("unsupported", "this mbarrier operation is not supported by the emulator");
    }
    if (!o.ok())
      throw Trouble("undefined", o.problem);
    pc_[t] = pc + 1;
    if (o.completed)
      wake_mbarrier_waiters(a);
  }
}

void Cta::wake_mbarrier_waiters(uint64_t addr) {
  // A waiter sees the completion at once (a schedule in which it was spinning): its predicate
  // becomes true and it moves past the wait, whatever later phases do to the parity.
  const exec::CtaMbarriers::Mbarrier* b = mbarriers_.find(addr);
  VOLTA_ASSERT(b != nullptr, "a completed phase belongs to an mbarrier");
  for (uint32_t t = 0; t < threads_; ++t) {
    if (state_[t] != State::AtMbarrier || mbar_wait_[t].first != addr ||
        mbar_wait_[t].second >= b->phase)
      continue;
    write(prog_.insts[pc_[t]].dsts[0], t, 1);
    ++pc_[t];
    state_[t] = State::Running;
  }
}

void Cta::exec_bar(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t first = base + std::countr_zero(mask);
  const uint64_t id = read(in.srcs[0], first, ValType::U32);
  uint32_t count = 0;
  if (in.srcs.size() > 1) {
    count = static_cast<uint32_t>(read(in.srcs[1], first, ValType::U32));
    if (count == 0 || count % 32 != 0)
      throw Trouble("undefined", fmt::format("barrier thread count {} is not a positive multiple "
                                             "of the warp size",
                                             count));
    if (count > threads_ && in.op != XOp::BarArrive)
      throw Trouble("deadlock", fmt::format("barrier {} waits for {} threads but the CTA has {}",
                                            id, count, threads_));
  }
  if (id >= 16)
    throw Trouble("undefined", fmt::format("barrier {} (PTX allows 0 to 15)", id));
  for (uint32_t m = mask & (mask - 1); m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    if (read(in.srcs[0], t, ValType::U32) != id ||
        (in.srcs.size() > 1 && read(in.srcs[1], t, ValType::U32) != count))
      throw Trouble("undefined", "lanes of a warp execute a barrier with different ids or counts");
  }
  if (in.op == XOp::BarArrive && count == 0)
    throw Trouble("unsupported", "bar.arrive needs a thread count");
  const uint32_t bar = static_cast<uint32_t>(id);
  auto disagree = [&] {
    throw Trouble("barrier divergence",
                  fmt::format("threads use barrier {} with different thread counts in one phase "
                              "(undefined behaviour)",
                              bar));
  };
  if (in.op == XOp::BarArrive) {
    // The warp arrives (32 arrivals) and goes on; the phase may complete now (as in the
    // symbolic CTA, exec_barrier.cpp: a warp arriving in parts is not modeled).
    const uint32_t live = exec::existing_lanes_of(threads_, w) & ~exited_lanes(w);
    if (mask != live)
      throw Trouble("unsupported", "bar.arrive by part of a warp is not modeled");
    if (!barriers_.arrive(bar, count))
      disagree();
    for (uint32_t m = mask; m != 0; m &= m - 1)
      pc_[base + std::countr_zero(m)] = pc + 1;
    if (barriers_.complete(bar, state_))
      complete_phase(bar);
    return;
  }
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    state_[t] = State::AtBarrier;
    pc_[t] = pc;
    if (!barriers_.wait(t, bar, count))
      disagree();
  }
}

void Cta::complete_phase(uint32_t id) {
  if (auto d = barriers_.phase_count_mismatch(id, state_)) {
    pc_now_ = pc_[d->b];
    thread_now_ = d->b;
    throw Trouble("barrier divergence", d->message);
  }
  if (auto d = barriers_.form_divergence(id, prog_, state_, pc_)) {
    pc_now_ = pc_[d->b];
    thread_now_ = d->b;
    throw Trouble("barrier divergence", d->message + " (undefined behaviour)");
  }
  const uint32_t expected = barriers_.expected(id);
  if (expected != 0) {
    const uint32_t arrived = barriers_.arrived(id, state_);
    if (arrived > expected)
      throw Trouble("unsupported",
                    fmt::format("barrier {} has {} arrivals for a thread count of {}: which of "
                                "them make the phase depends on the schedule",
                                id, arrived, expected));
    for (uint32_t w = 0; w < warps_; ++w) {
      for (uint32_t t = w * 32; t < std::min(threads_, w * 32 + 32); ++t) {
        if (barriers_.waits_at(state_, t, id) && !barriers_.warp_waits(w, id, state_))
          throw Trouble("unsupported", fmt::format("lanes of warp {} wait at barrier {} while "
                                                   "others of it have not arrived, and its "
                                                   "phase completes (not modeled)",
                                                   w, id));
      }
    }
  }
  barriers_.release(id, state_, pc_);
}

bool Cta::fire_barriers() {
  const std::vector<uint32_t> waiting = barriers_.waiting(state_);
  bool fired = false;
  for (uint32_t id = 0; id < exec::CtaBarriers::kBarriers; ++id) {
    if (waiting[id] == 0 || !barriers_.complete(id, state_))
      continue;
    complete_phase(id);
    fired = true;
  }
  return fired;
}

// ---------------------------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------------------------

uint64_t Cta::address(const exec::MemRef& m, uint32_t t) {
  const uint64_t base = m.has_base ? reg(m.base, t) : 0;
  return base + static_cast<uint64_t>(m.offset);
}

uint8_t* Cta::locate(Space space, uint64_t a, uint32_t size, uint32_t t, bool write,
                     uint8_t** written) {
  if (space == Space::Generic)
    std::tie(space, a) = exec::resolve_generic(a);
  if (size > 1 && a % size != 0)
    throw Trouble("misaligned",
                  fmt::format("accesses {} bytes at the misaligned address {:#x}", size, a));
  auto outside = [&](const char* where) {
    return Trouble("out of bounds",
                   fmt::format("accesses {} bytes at {:#x}, outside {}", size, a, where));
  };
  switch (space) {
  case Space::Global: {
    GlobalRegion* r = launch_.find(a, size);
    if (r == nullptr)
      throw outside("every global array");
    if (write && r->is_array &&
        (r->kind == launch::ArrayKind::In || r->kind == launch::ArrayKind::Index))
      throw Trouble("unsupported", fmt::format("writes the read-only array {}", r->name));
    // An aligned access of up to 16 bytes stays inside a page; another form is not guessed.
    if (!PagedBytes::in_one_page(a - r->base, size))
      throw Trouble("unsupported",
                    fmt::format("accesses {} bytes at {:#x} across a page of the emulator's "
                                "memory",
                                size, a));
    if (!write && !launch_.options.ctas.empty() && r->memory->tracks_written()) {
      // A run of some CTAs only: a byte of writable memory it had not written may be another
      // CTA's store in the whole launch.
      for (uint32_t i = 0; i < size; ++i) {
        if (!r->memory->written(a - r->base + i)) {
          ++launch_.foreign_reads;
          break;
        }
      }
    }
    if (written)
      *written =
          write && r->memory->tracks_written() ? r->memory->written_at(a - r->base) : nullptr;
    return r->memory->bytes_at(a - r->base);
  }
  case Space::Shared:
    if (!exec::inside_shared(extents_, shared_.size(), a, size))
      throw outside("every shared variable");
    if (!mbarriers_.empty() && !in_mbarrier_op_) {
      if (auto bar = mbarriers_.overlaps(a, size))
        throw Trouble("unsupported", exec::CtaMbarriers::ordinary_access(a, size, write, *bar));
    }
    if (written)
      *written = shared_written_.data() + a;
    tracked_space_ = "shared";
    return &shared_[a];
  case Space::Local:
    if (!exec::inside_local(prog_, extents_, a, size))
      throw outside("every local variable of the thread");
    if (written)
      *written = local_written_.data() + size_t{t} * prog_.local_bytes + a;
    tracked_space_ = "local";
    return &local_[size_t{t} * prog_.local_bytes + a];
  case Space::Param:
    if (write && a + size <= prog_.param_bytes)
      throw Trouble("unsupported", "writes a kernel parameter");
    switch (exec::param_area(prog_, a, size)) {
    case exec::ParamArea::KernelParam:
      return &launch_.params[a];
    case exec::ParamArea::CallScratch:
      return &scratch_[size_t{t} * prog_.scratch_param_bytes + (a - prog_.param_bytes)];
    case exec::ParamArea::Outside:
      break;
    }
    throw outside("every kernel parameter and the call parameters");
  case Space::Const:
    if (write)
      throw Trouble("unsupported", "writes constant memory");
    if (!exec::inside_const(launch_.constants.size(), a, size))
      throw outside("constant memory");
    return &launch_.constants[a - exec::kConstWindow];
  default:
    throw Trouble("unsupported", "accesses an unknown state space");
  }
}

// A read of shared or local bytes no thread wrote is counted, and the first one described,
// for the result's note.
void Cta::note_uninitialized(const uint8_t* flags, uint32_t size, uint32_t t) {
  for (uint32_t i = 0; i < size; ++i) {
    if (flags[i])
      continue;
    if (launch_.uninitialized_reads++ == 0) {
      const auto& in = prog_.insts[pc_now_];
      launch_.first_uninitialized_read =
          fmt::format("PTX line {}: thread {} of CTA {} reads {} bytes of {} memory that no "
                      "thread wrote [{}]",
                      in.line, t, cta_, size, tracked_space_, in.text);
    }
    return;
  }
}

uint64_t Cta::load(Space space, uint64_t a, uint32_t size, uint32_t t) {
  uint8_t* flags = nullptr;
  tracked_space_ = nullptr;
  const uint8_t* p = locate(space, a, size, t, false, &flags);
  if (tracked_space_ != nullptr)
    note_uninitialized(flags, size, t);
  uint64_t v = 0;
  for (uint32_t i = 0; i < size; ++i)
    v |= uint64_t{p[i]} << (8 * i);
  return v;
}

void Cta::store(Space space, uint64_t a, uint32_t size, uint64_t bits, uint32_t t) {
  uint8_t* written = nullptr;
  uint8_t* p = locate(space, a, size, t, true, &written);
  for (uint32_t i = 0; i < size; ++i) {
    p[i] = static_cast<uint8_t>(bits >> (8 * i));
    if (written)
      written[i] = 1;
  }
}

void Cta::exec_ld(const Inst& in, uint32_t t) {
  const uint32_t elem = std::max<uint32_t>(1, exec::width_of(in.type) / 8);
  const uint64_t a = address(in.mem[0], t);
  const uint32_t n = static_cast<uint32_t>(in.dsts.size());
  if (n > 1)
    (void)locate(in.space, a, elem * n, t, false); // alignment of the whole vector access
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t v = load(in.space, a + i * elem, elem, t);
    if (exec::is_signed(in.type))
      v = static_cast<uint64_t>(sign_extend(v, 8 * elem));
    write(in.dsts[i], t, v);
  }
}

void Cta::exec_st(const Inst& in, uint32_t t) {
  const uint32_t elem = std::max<uint32_t>(1, exec::width_of(in.type) / 8);
  const uint64_t a = address(in.mem[0], t);
  const uint32_t n = static_cast<uint32_t>(in.srcs.size());
  if (n > 1)
    (void)locate(in.space, a, elem * n, t, true); // alignment of the whole vector access
  for (uint32_t i = 0; i < n; ++i)
    store(in.space, a + i * elem, elem, read(in.srcs[i], t, in.type), t);
}

void Cta::exec_atom(const Inst& in, uint32_t t) {
  using exec::AtomOp;
  const ValType type = in.type;
  const uint32_t w = exec::width_of(type);
  const uint32_t elem = w / 8;
  const uint64_t a = address(in.mem[0], t);
  const uint64_t old = load(in.space, a, elem, t);
  const uint64_t b = low_bits(read(in.srcs[0], t, type), w);
  const auto op = static_cast<AtomOp>(in.sub);
  uint64_t result = 0;
  if (exec::is_float(type)) {
    if (op == AtomOp::Exch) {
      result = b;
    } else if (op == AtomOp::Add && (type == ValType::F32 || type == ValType::F64 ||
                                     type == ValType::F16 || type == ValType::BF16)) {
      const FloatFormat f = float_format(type);
      // atom.add.f32 flushes subnormal inputs and results (PTX ISA, atom); f64 does not.
      const bool ftz = type == ValType::F32;
      auto fl = [&](uint64_t x) { return ftz ? flush(f, x) : x; };
      result = fl(arith(Arith::Add, f, RoundMode::NearestEven, fl(old), fl(b), 0, ftz));
    } else {
      throw Trouble("unsupported", "this floating-point atomic is not supported by the emulator");
    }
  } else {
    const bool sgn = exec::is_signed(type);
    const auto lt = [&](uint64_t x, uint64_t y) {
      return sgn ? sign_extend(x, w) < sign_extend(y, w) : x < y;
    };
    switch (op) {
    case AtomOp::Add:
      result = old + b;
      break;
    case AtomOp::Min:
      result = lt(b, old) ? b : old;
      break;
    case AtomOp::Max:
      result = lt(old, b) ? b : old;
      break;
    case AtomOp::Inc:
      result = old >= b ? 0 : old + 1;
      break;
    case AtomOp::Dec:
      result = (old == 0 || old > b) ? b : old - 1;
      break;
    case AtomOp::And:
      result = old & b;
      break;
    case AtomOp::Or:
      result = old | b;
      break;
    case AtomOp::Xor:
      result = old ^ b;
      break;
    case AtomOp::Exch:
      result = b;
      break;
    case AtomOp::Cas:
      result = old == b ? low_bits(read(in.srcs[1], t, type), w) : old;
      break;
    }
  }
  store(in.space, a, elem, low_bits(result, w), t);
  if (in.op == XOp::Atom && !in.dsts.empty())
    write(in.dsts[0], t, exec::is_signed(type) ? static_cast<uint64_t>(sign_extend(old, w)) : old);
}

void Cta::exec_cp_async(const Inst& in, uint32_t t) {
  // The concrete oracle copies at issue: for a race-free kernel (which the symbolic engine
  // checks) no thread can observe the difference.
  uint64_t dst = address(in.mem[0], t);
  if (exec::in_window(dst, exec::kSharedWindow))
    dst -= exec::kSharedWindow;
  const uint64_t src = address(in.mem[1], t);
  const auto size = static_cast<uint32_t>(read(in.srcs[0], t, ValType::U32));
  if (size != 4 && size != 8 && size != 16)
    throw Trouble("undefined", fmt::format("cp.async of {} bytes (4, 8 or 16 allowed)", size));
  // The bytes read from the source (PTX ISA, cp.async); the rest of the destination is zeroed.
  uint32_t src_size = size;
  switch (static_cast<exec::CpAsyncExtra>(in.sub)) {
  case exec::CpAsyncExtra::None:
    break;
  case exec::CpAsyncExtra::SrcSize:
    src_size = static_cast<uint32_t>(read(in.srcs[1], t, ValType::U32));
    if (src_size > size)
      throw Trouble("undefined",
                    fmt::format("cp.async src-size {} above its cp-size {}", src_size, size));
    break;
  case exec::CpAsyncExtra::IgnoreSrc: {
    const bool ignore = (read(in.srcs[1], t, ValType::Pred) & 1u) != 0; // `!p` read negated
    src_size = ignore ? 0 : size;
    break;
  }
  }
  if (src_size > 0 && src % size != 0)
    throw Trouble("misaligned",
                  fmt::format("cp.async source 0x{:x} is not {}-byte aligned", src, size));
  (void)locate(Space::Shared, dst, size, t, true);
  for (uint32_t i = 0; i < size; ++i) {
    const uint64_t v = i < src_size ? load(Space::Generic, src + i, 1, t) : 0;
    store(Space::Shared, dst + i, 1, v, t);
  }
}

void Cta::exec_call(const Inst& in, uint32_t t) {
  const exec::Callee& callee = prog_.callees[in.call_id];
  if (callee.is_symexp) {
    if (in.srcs.size() != 1 || in.dsts.size() != 1)
      throw Trouble("unsupported", "calls __symexpf with the wrong number of arguments");
    const uint64_t x = load(Space::Param, in.srcs[0].imm, 4, t);
    store(Space::Param, in.dsts[0].imm, 4, approx(Approx::Exp, FloatFormat::F32, x), t);
    return;
  }
  if (callee.name == "vprintf") {
    if (!in.dsts.empty())
      store(Space::Param, in.dsts[0].imm, 4, 0, t);
    return;
  }
  throw Trouble("unsupported",
                fmt::format("calls '{}' (the emulator models __symexpf and vprintf)", callee.name));
}

} // namespace volta::emulate
