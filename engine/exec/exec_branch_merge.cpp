// Branches on data that the signs do not decide (docs/semantics.md, "Branches on data"): a
// lane whose guard is a symbolic predicate executes *both* sides, one after the other from the
// same registers, and every register the two sides leave different becomes
// select(condition, taken-side value, fall-through value). That is exact when the sides only
// compute in registers and re-converge before any memory access, barrier or collective:
// otherwise the kernel is outside the model (UNSUPPORTED, as before). The online-softmax update
// written with an `if`
//     if (x > m) { sum *= expf(m - x); m = x; }
// compiles to such a branch (or to predicated instructions, merged the same way one
// instruction at a time), and the prover decides the selects it leaves by cases.
//
// Each side is the path the lane follows without looking at data: register instructions and
// unconditional jumps (`bra`, nvcc's `bra.uni`), from the fall-through instruction and from the
// target. Both paths are fixed by the code alone, so when both reach one instruction J (the
// first instruction of the fall-through path, after the branch, that the taken path reaches
// too), a lane of either side arrives at J having executed exactly its path's instructions up
// to J, and the merge is exact whatever the layout: `@p bra T; <else>; T:` (if),
// `@p bra T; <else>; bra.uni J; T: <then>; J:`, and nvcc's
// `@p bra A; bra.uni B; A: <then>; bra.uni J; B: <else>; J:`.
#include <algorithm>
#include <fmt/format.h>

#include "engine/exec/cta_runner.hpp"
#include "engine/exec/instruction_family.hpp"

namespace volta::exec {

namespace {

// Instructions a merged side may execute: they read and write registers only.
// By family (instruction_family.hpp), so that a new opcode is not taken in by a range of the enum.
bool register_only(XOp op) {
  switch (family_of(op)) {
  case Family::Integer:
  case Family::Float:
  case Family::Compare:
  case Family::Select:
  case Family::Move:
  case Family::Convert:
    return true;
  case Family::NoEffect:
    return op == XOp::Nop; // fence and prefetch are about memory
  case Family::Unsupported:
    return op == XOp::Testp; // executed in the side, where it is refused with its reason
  default:
    return false;
  }
}

constexpr uint32_t kMaxSide = 512; // instructions in one side of a merged branch

// The path of one side: the instructions a lane executes from `start` while they compute in
// registers or jump unconditionally, in order; `pcs` ends with the instruction where it stops
// (which the path does not execute: a memory access, barrier, collective, call, exit, a guarded
// branch, the end of the kernel) or after kMaxSide instructions (a loop of jumps, a long side).
struct SidePath {
  std::vector<uint32_t> pcs;
  bool too_long = false;
};

SidePath side_path(const std::vector<Inst>& insts, uint32_t start) {
  SidePath path;
  uint32_t pc = start;
  while (true) {
    path.pcs.push_back(pc);
    if (pc >= insts.size())
      break; // falling off the end: an implicit return
    if (path.pcs.size() > kMaxSide) {
      path.too_long = true;
      break;
    }
    const Inst& in = insts[pc];
    if (register_only(in.op)) {
      ++pc;
    } else if (in.op == XOp::Bra && !in.has_guard) {
      pc = in.target;
    } else {
      break;
    }
  }
  return path;
}

// Where a path stops, for reports.
std::string describe_stop(const std::vector<Inst>& insts, const SidePath& path) {
  if (path.too_long)
    return fmt::format("runs past {} instructions", kMaxSide);
  const uint32_t pc = path.pcs.back();
  if (pc >= insts.size())
    return "leaves the kernel";
  return fmt::format("stops at '{}' (PTX line {})", insts[pc].text, insts[pc].line);
}

} // namespace

Value CtaRunner::merge_values(ExprId cond, Value if_true, Value if_false, ValType type) {
  if (if_true.bits == if_false.bits && if_true.node == if_false.node && if_true.fl == if_false.fl)
    return if_true;
  if (type == ValType::Pred) {
    auto pred = [&](Value v) {
      return v.symbolic() ? v.node : ctx_.store.constant(static_cast<long>(v.bits & 1u));
    };
    return Value{0, b_.select(cond, pred(if_true), pred(if_false))};
  }
  if (if_true.fl || if_false.fl || is_float(type)) {
    // A 16-bit half is read in its own format: concrete bf16 bits read as an f16 would be
    // another number; both sides are read in one format (the other side's data of the other
    // format as a reinterpretation, exec_formats.cpp), which the merged value keeps.
    const ValType half = width_of(type) == 16 ? half_view(if_true, if_false) : ValType::None;
    ValType real_type = is_float(type) ? type : ValType::F32;
    if (!is_float(type) && width_of(type) == 64)
      real_type = ValType::F64;
    else if (!is_float(type) && width_of(type) == 16)
      real_type = half == ValType::BF16 ? ValType::BF16 : ValType::F16;
    return Value{0, b_.select(cond, real_of(if_true, real_type), real_of(if_false, real_type)),
                 true, real_type == ValType::BF16, real_type == ValType::F16 && half == real_type};
  }
  const ValType int_type = type == ValType::None ? ValType::B32 : type;
  return integer_result(b_.select(cond, int_view(if_true, int_type), int_view(if_false, int_type)));
}

bool CtaRunner::merge_predicated(const Inst& in, uint32_t pc, uint32_t w, uint32_t lane,
                                 ExprId cond) {
  const uint32_t t = w * 32 + lane;
  if (!register_only(in.op)) {
    fail_unsupported(in, t,
                     "is guarded by a predicate on data that the signs do not decide, and it "
                     "touches memory or other threads (only register instructions are merged)");
    return false;
  }
  std::vector<Value> before;
  for (const Operand& d : in.dsts)
    before.push_back(d.kind == OpKind::Reg ? reg_value(d.reg, t) : Value{});
  Inst unguarded = in;
  unguarded.has_guard = false;
  execute(unguarded, pc, w, 1u << lane);
  if (failed_)
    return false;
  for (size_t i = 0; i < in.dsts.size(); ++i) {
    const Operand& d = in.dsts[i];
    if (d.kind != OpKind::Reg)
      continue;
    set(d.reg, t, merge_values(cond, reg_value(d.reg, t), before[i], prog_.registers[d.reg].type));
  }
  ++stats_.idioms["predicated instruction on data (merged with select)"];
  return true;
}

bool CtaRunner::run_side(const Inst& branch, uint32_t start, uint32_t join, uint32_t steps,
                         uint32_t w, uint32_t lane) {
  const uint32_t t = w * 32 + lane;
  pc_[t] = start;
  ++merge_depth_;
  struct Leave {
    uint32_t& depth;
    ~Leave() { --depth; }
  } leave{merge_depth_};
  for (uint32_t executed = 0; pc_[t] != join; ++executed) {
    const uint32_t pc = pc_[t];
    // The side follows its path (side_path), which reaches the join after `steps` instructions.
    if (executed >= steps || pc >= prog_.insts.size()) {
      fail_unsupported(branch, t,
                       "branches on data, and a side did not follow its path to the join (an "
                       "internal inconsistency: refused rather than merged)");
      return false;
    }
    execute(prog_.insts[pc], pc, w, 1u << lane);
    if (failed_)
      return false;
  }
  return true;
}

bool CtaRunner::merge_data_branch(const Inst& in, uint32_t pc, uint32_t w, uint32_t lane,
                                  ExprId taken) {
  const uint32_t t = w * 32 + lane;
  const uint32_t target = in.target;
  const auto& insts = prog_.insts;
  if (target <= pc) {
    fail_unsupported(in, t,
                     "is a backward branch on data: a loop whose trip count depends on "
                     "the data");
    return false;
  }
  const SidePath fall = side_path(insts, pc + 1);
  const SidePath jump = side_path(insts, target);
  // The join: the first instruction of the fall-through path after the branch that the taken
  // path reaches too. After the branch, so that a merge never goes back to it (a side that
  // returns to the branch is a loop on data).
  std::vector<uint32_t> reached = jump.pcs;
  std::sort(reached.begin(), reached.end());
  uint32_t join = UINT32_MAX, fall_steps = 0;
  for (size_t i = 0; i < fall.pcs.size() && join == UINT32_MAX; ++i) {
    if (fall.pcs[i] > pc && std::binary_search(reached.begin(), reached.end(), fall.pcs[i])) {
      join = fall.pcs[i];
      fall_steps = static_cast<uint32_t>(i);
    }
  }
  if (join == UINT32_MAX) {
    fail_unsupported(
        in, t,
        fmt::format("branches on data that the signs do not decide, and its sides do not meet "
                    "in register code: the fall-through side {}, the taken side {} (only sides "
                    "that compute in registers and re-converge are merged)",
                    describe_stop(insts, fall), describe_stop(insts, jump)));
    return false;
  }
  const auto jump_steps =
      static_cast<uint32_t>(std::find(jump.pcs.begin(), jump.pcs.end(), join) - jump.pcs.begin());
  // Both sides from the same registers.
  const size_t regs = prog_.registers.size();
  std::vector<Value> start(regs), fall_values(regs);
  for (size_t r = 0; r < regs; ++r)
    start[r] = reg_value(static_cast<uint32_t>(r), t);
  if (!run_side(in, pc + 1, join, fall_steps, w, lane))
    return false;
  for (size_t r = 0; r < regs; ++r) {
    fall_values[r] = reg_value(static_cast<uint32_t>(r), t);
    set(static_cast<uint32_t>(r), t, start[r]);
  }
  if (!run_side(in, target, join, jump_steps, w, lane))
    return false;
  for (size_t r = 0; r < regs; ++r) {
    const uint32_t reg = static_cast<uint32_t>(r);
    set(reg, t, merge_values(taken, reg_value(reg, t), fall_values[r], prog_.registers[r].type));
  }
  pc_[t] = join;
  ++stats_.idioms["branch on data (both sides merged with select)"];
  return true;
}

} // namespace volta::exec
