// Branches on data that the signs do not decide (docs/semantics.md, "Branches on data"): a
// lane whose guard is a symbolic predicate executes *both* sides, one after the other from the
// same registers, and every register the two sides leave different becomes
// select(condition, taken-side value, fall-through value). That is exact when the sides only
// compute in registers and re-converge before any memory access, barrier or collective, which
// is checked before a side runs: otherwise the kernel is outside the model (UNSUPPORTED, as
// before). The online-softmax update written with an `if`
//     if (x > m) { sum *= expf(m - x); m = x; }
// compiles to such a branch (or to predicated instructions, merged the same way one
// instruction at a time), and the prover decides the selects it leaves by cases.
#include <fmt/format.h>

#include "engine/exec/cta_runner.hpp"

namespace volta::exec {

namespace {

// Instructions a merged side may execute: they read and write registers only.
bool register_only(XOp op) {
  switch (op) {
  case XOp::Nop:
  case XOp::Setp:
  case XOp::Selp:
  case XOp::Set:
  case XOp::Mov:
  case XOp::Cvt:
  case XOp::Testp:
  case XOp::FCopysign:
    return true;
  default:
    return (op >= XOp::IAdd && op <= XOp::Sad) || (op >= XOp::FAdd && op <= XOp::FTanh);
  }
}

constexpr uint32_t kMaxSide = 512;       // instructions in one side of a merged branch
constexpr uint32_t kMaxSideSteps = 4096; // executed instructions in one side

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

bool CtaRunner::run_side(const Inst& branch, uint32_t start, uint32_t end, uint32_t skip,
                         uint32_t w, uint32_t lane) {
  const uint32_t t = w * 32 + lane;
  pc_[t] = start;
  ++merge_depth_;
  struct Leave {
    uint32_t& depth;
    ~Leave() { --depth; }
  } leave{merge_depth_};
  for (uint32_t steps = 0; pc_[t] != end; ++steps) {
    const uint32_t pc = pc_[t];
    if (pc < start || pc > end || steps > kMaxSideSteps) {
      fail_unsupported(branch, t,
                       "branches on data, and one side leaves the region between the branch "
                       "and its target (only if/else shapes that re-converge are merged)");
      return false;
    }
    if (pc == skip) // the jump over the other side
      break;
    const Inst& in = prog_.insts[pc];
    execute(in, pc, w, 1u << lane);
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
  // if (c) { else-part } / if (!c) { then-part } else { ... }: the fall-through side ends at the
  // target, or at an unconditional forward jump just before it over the taken side.
  uint32_t join = target, skip = UINT32_MAX;
  if (target >= pc + 2 && target - 1 < insts.size()) {
    const Inst& last = insts[target - 1];
    if (last.op == XOp::Bra && !last.has_guard && last.target > target) {
      skip = target - 1;
      join = last.target;
    }
  }
  if (join - pc > kMaxSide || join > insts.size()) {
    fail_unsupported(in, t, "branches on data over too long a region to merge both sides");
    return false;
  }
  for (uint32_t p = pc + 1; p < join; ++p) {
    if (p == skip)
      continue;
    const Inst& x = insts[p];
    if (!register_only(x.op)) {
      fail_unsupported(
          in, t,
          fmt::format("branches on data that the signs do not decide, and a side executes '{}' "
                      "(PTX line {}): only sides that compute in registers are merged",
                      x.text, x.line));
      return false;
    }
  }
  // Both sides from the same registers.
  const size_t regs = prog_.registers.size();
  std::vector<Value> start(regs), fall(regs);
  for (size_t r = 0; r < regs; ++r)
    start[r] = reg_value(static_cast<uint32_t>(r), t);
  if (!run_side(in, pc + 1, skip != UINT32_MAX ? skip : join, skip, w, lane))
    return false;
  for (size_t r = 0; r < regs; ++r) {
    fall[r] = reg_value(static_cast<uint32_t>(r), t);
    set(static_cast<uint32_t>(r), t, start[r]);
  }
  if (skip != UINT32_MAX && !run_side(in, target, join, UINT32_MAX, w, lane))
    return false;
  for (size_t r = 0; r < regs; ++r) {
    const uint32_t reg = static_cast<uint32_t>(r);
    set(reg, t, merge_values(taken, reg_value(reg, t), fall[r], prog_.registers[r].type));
  }
  pc_[t] = join;
  ++stats_.idioms["branch on data (both sides merged with select)"];
  return true;
}

} // namespace volta::exec
