// The forms of Hopper's asynchronous instructions (TMA `cp.async.bulk...`, `mbarrier...`,
// `wgmma...`, `setmaxnreg`, `fence.proxy.async` / `fence.mbarrier_init`): one syntax block of
// the PTX ISA each, with operand counts and kinds that depend on the words present, which the
// one-row-per-opcode table of instruction_set.hpp cannot say. validate.cpp runs this after the
// opcode's row (if it has one), so that what ptxas rejects here is a located error too.
//
// The engine models none of these instructions (it refuses them as UNSUPPORTED when a thread
// reaches one); the check is here so that a malformed kernel is bad input, not UNSUPPORTED.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "ptx/ast.hpp"

namespace volta::ptx {

// Where a form problem lies: on the opcode, on suffix `index`, or on operand `index`.
struct FormProblem {
  enum class At : uint8_t { Opcode, Suffix, Operand } at = At::Opcode;
  size_t index = 0;
  std::string message;
};

// The first problem of `ins`'s form, if it is one of the instructions above; nullopt when the
// form is valid or the instruction is another one.
std::optional<FormProblem> async_form_problem(const Instruction& ins);

} // namespace volta::ptx
