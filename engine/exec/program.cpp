#include "engine/exec/program.hpp"

#include <string>

#include "support/invariant.hpp"

namespace volta::exec {

bool modeled_type(ValType t) {
  using S = ptx::ScalarType;
  switch (t) {
  case S::None:
  case S::Pred:
  case S::B8:
  case S::B16:
  case S::B32:
  case S::B64:
  case S::U8:
  case S::U16:
  case S::U32:
  case S::U64:
  case S::S8:
  case S::S16:
  case S::S32:
  case S::S64:
  case S::F16:
  case S::F16x2:
  case S::BF16:
  case S::BF16x2:
  case S::TF32:
  case S::F32:
  case S::F64:
    return true;
  case S::B128: // a value wider than the interpreter's 64-bit registers
  case S::E4M3: // fp8: no arithmetic of these formats is modeled
  case S::E5M2:
  case S::E4M3x2:
  case S::E5M2x2:
    return false;
  }
  VOLTA_UNREACHABLE("ptx::ScalarType value outside the enum");
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
