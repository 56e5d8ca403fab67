// The PTX instruction table: for each opcode whose form we check, the type suffixes, modifiers,
// state spaces, vector widths and operands that the PTX ISA (and ptxas 13) allows.
//
// One row per opcode, read by the validation that runs right after parsing (validate.hpp) so
// that what ptxas rejects is rejected here too, with a located error. An opcode of PTX without a
// row still parses (the engine refuses it by name as UNSUPPORTED); only its type-like suffixes
// are checked. The rows are written in a small word language so that a row reads like the
// instruction's syntax block in the ISA:
//
//   types      "u16 u32 s32 f32"      the type suffixes allowed (each position of a multi-type
//                                     opcode draws from the same set; see min/max_types)
//   modifiers  "rn:F sat:s32,f32 cc"  the other suffixes allowed; `word:T,U` allows it only when
//                                     the first type suffix is one of T, U (F: any float type,
//                                     I: any integer type, B: any bit type)
//   required   "lo|hi|wide:I"         groups of which one word must be present (for those types)
//   spaces     "global shared"        the state spaces allowed; `space_required` if one must be
//   vectors    "v2 v4"                the vector widths allowed
//   operands   "d s s"                one letter per operand: d destination (register, vector,
//                                     `_` or a `p|q` pair), s source (register or immediate or
//                                     vector), m memory address `[...]`, l label or symbol name,
//                                     * anything; operands past the pattern repeat its last letter.
//                                     A capital D or S also requires a register operand's
//                                     declared type to fit the instruction type: the same size,
//                                     and the same kind unless one is a bit type (signed and
//                                     unsigned mix; ld, st and cvt, which allow wider registers,
//                                     use lower case); P and p: a register operand must be a
//                                     predicate (P a destination, p a source); W and V: the
//                                     data of ld and st (a destination, a source), whose
//                                     registers may be wider than an integer type
//   required   (a group "sync" applies from sm_70 on: shfl and vote without it are older PTX)
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace volta::ptx {

struct InstructionRule {
  std::string_view opcode;
  std::string_view types;
  uint8_t min_types = 1;
  uint8_t max_types = 1;
  std::string_view modifiers;
  std::string_view required;
  std::string_view spaces;
  bool space_required = false;
  std::string_view vectors;
  uint8_t min_operands = 0;
  uint8_t max_operands = 0;
  std::string_view operands;
};

// The row of `opcode` ("add", "ld"), or nullptr when the opcode's form is not checked.
const InstructionRule* instruction_rule(std::string_view opcode);

// Every row, in table order (for tests and the mutation generator).
std::span<const InstructionRule> instruction_rules();

// Whether `word` is spelled like a PTX type suffix ("s33", "f32x", "u8x4", "e4m3"), valid or not.
bool looks_like_type(std::string_view word);

// Whether `word` is a type suffix of PTX (the ScalarType ones and the packed integer types).
bool is_ptx_type(std::string_view word);

} // namespace volta::ptx
