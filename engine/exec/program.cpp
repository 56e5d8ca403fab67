#include "engine/exec/program.hpp"

#include <string>

namespace volta::exec {

uint32_t width_of(ValType t) {
  switch (t) {
  case ValType::Pred:
    return 1;
  case ValType::B8:
  case ValType::U8:
  case ValType::S8:
    return 8;
  case ValType::B16:
  case ValType::U16:
  case ValType::S16:
  case ValType::F16:
  case ValType::BF16:
    return 16;
  case ValType::B32:
  case ValType::U32:
  case ValType::S32:
  case ValType::F32:
  case ValType::F16x2:
  case ValType::BF16x2:
  case ValType::TF32:
    return 32;
  case ValType::B64:
  case ValType::U64:
  case ValType::S64:
  case ValType::F64:
    return 64;
  default:
    return 0;
  }
}

bool is_signed(ValType t) {
  return t == ValType::S8 || t == ValType::S16 || t == ValType::S32 || t == ValType::S64;
}

bool is_float(ValType t) {
  switch (t) {
  case ValType::F16:
  case ValType::F16x2:
  case ValType::BF16:
  case ValType::BF16x2:
  case ValType::TF32:
  case ValType::F32:
  case ValType::F64:
    return true;
  default:
    return false;
  }
}

ValType val_type(ptx::ScalarType t) {
  using S = ptx::ScalarType;
  switch (t) {
  case S::Pred:
    return ValType::Pred;
  case S::B8:
    return ValType::B8;
  case S::B16:
    return ValType::B16;
  case S::B32:
    return ValType::B32;
  case S::B64:
    return ValType::B64;
  case S::U8:
    return ValType::U8;
  case S::U16:
    return ValType::U16;
  case S::U32:
    return ValType::U32;
  case S::U64:
    return ValType::U64;
  case S::S8:
    return ValType::S8;
  case S::S16:
    return ValType::S16;
  case S::S32:
    return ValType::S32;
  case S::S64:
    return ValType::S64;
  case S::F16:
    return ValType::F16;
  case S::F16x2:
    return ValType::F16x2;
  case S::BF16:
    return ValType::BF16;
  case S::BF16x2:
    return ValType::BF16x2;
  case S::TF32:
    return ValType::TF32;
  case S::F32:
    return ValType::F32;
  case S::F64:
    return ValType::F64;
  default:
    return ValType::None;
  }
}

std::optional<std::string> malformation(const Program& program) {
  const size_t insts = program.insts.size(), registers = program.registers.size();
  for (size_t pc = 0; pc < insts; ++pc) {
    const Inst& inst = program.insts[pc];
    if (inst.target > insts) // == insts: a label after the last instruction
      return "instruction " + std::to_string(pc) + ": branch target out of range";
    if (inst.has_guard && inst.guard_reg >= registers)
      return "instruction " + std::to_string(pc) + ": guard register out of range";
    for (const auto* operands : {&inst.dsts, &inst.srcs}) {
      for (const Operand& o : *operands) {
        if (o.kind == OpKind::Reg && o.reg >= registers)
          return "instruction " + std::to_string(pc) + ": register out of range";
      }
    }
    if (inst.op == XOp::Call && inst.call_id >= program.callees.size())
      return "instruction " + std::to_string(pc) + ": callee out of range";
  }
  return std::nullopt;
}

} // namespace volta::exec
