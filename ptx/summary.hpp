// What `volta-eg parse` reports about a module: its version and target, its kernels with their
// parameters, and how often each instruction form (opcode with all its suffixes) occurs.
// Kept apart from the command so that other tools and tests can reuse it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ptx/ast.hpp"

namespace volta::ptx {

struct ParamSummary {
  std::string name;
  std::string type; // as declared, without `.param`: ".u64", ".align 8 .b8 [16]"
};

struct KernelSummary {
  std::string name;
  std::vector<ParamSummary> params;
  size_t instructions = 0;
};

struct OpcodeCount {
  std::string form; // "ld.global.nc.f32"
  size_t count = 0;
};

struct ModuleSummary {
  uint32_t version_major = 0;
  uint32_t version_minor = 0;
  std::vector<std::string> targets;
  uint32_t address_size = 64;
  size_t functions = 0; // .entry and .func definitions (prototypes excluded)
  size_t instructions = 0;
  std::vector<KernelSummary> kernels; // `.entry` in source order
  std::vector<OpcodeCount> histogram; // most frequent first, ties by name
};

// The type part of a declaration as PTX spells it, e.g. ".u64", ".v4 .f32", ".align 8 .b8 [16]",
// ".u64 .ptr .global .align 16".
std::string declared_type(const VariableDecl& decl);

// "ld.global.nc.f32": the opcode with every suffix (no guard, no operands).
std::string instruction_form(const Instruction& ins);

ModuleSummary summarize(const Module& module);

// The human-readable report printed by `volta-eg parse` for one file.
std::string format_summary(const std::string& path, const ModuleSummary& summary);

} // namespace volta::ptx
