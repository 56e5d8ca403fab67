// Mutations of PTX instructions for the differential test against ptxas: a type, a modifier, a
// state space, a vector width or an operand changed on one instruction line of a kernel.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ptx/ast.hpp"

namespace volta::ptx::testing {

struct Mutant {
  uint32_t line = 0;    // 1-based line of the mutated instruction
  std::string kind;     // "type", "modifier+", "modifier-", "operand-", "operand+", ...
  std::string original; // the instruction as printed before the mutation
  std::string mutated;  // ... and after
};

// The lines of `text` that hold exactly one instruction of `module` and nothing else (nvcc's
// layout), with that instruction.
std::vector<std::pair<uint32_t, const Instruction*>> mutable_lines(const std::string& text,
                                                                   const Module& module);

// One random mutation of `ins`; std::nullopt-like empty `mutated` when the drawn mutation does
// not apply (no type to change, ...) or leaves the instruction as it was.
Mutant mutate(const Instruction& ins, uint32_t line, std::mt19937_64& rng);

// `text` with each mutant's line replaced by its mutated instruction.
std::string apply(const std::string& text, const std::vector<Mutant>& mutants);

} // namespace volta::ptx::testing
