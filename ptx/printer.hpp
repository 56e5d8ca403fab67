// Prints a Module back to PTX text. parse(print(m)) == m for every module the parser produced.
#pragma once

#include <string>

#include "ptx/ast.hpp"

namespace volta::ptx {

std::string print(const Module& module);
std::string print(const Instruction& instruction); // one instruction, no trailing newline

} // namespace volta::ptx
