#include "engine/symbolic/expr.hpp"

#include <cstddef>

namespace volta::symbolic {

const char* op_name(Op op) {
  static const char* const names[] = {
      "const", "input", "param", "undef", "inf",    "-inf", "bits",    "ln2",   "add",
      "sub",   "mul",   "div",   "fma",   "neg",    "abs",  "min",     "max",   "rcp",
      "sqrt",  "rsqrt", "exp",   "ex2",   "lg2",    "sin",  "cos",     "tanh",  "cmp",
      "and",   "or",    "xor",   "not",   "select", "pack", "extract", "bitop", "atomic-old"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(Op::Count_));
  return names[static_cast<size_t>(op)];
}

const char* cmp_name(CmpKind k) {
  static const char* const names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return names[static_cast<size_t>(k)];
}

const char* bitop_name(BitOpKind k) {
  static const char* const names[] = {"shl",  "shr",  "sra", "and", "or",  "xor", "not",   "iadd",
                                      "isub", "imul", "cvt", "f2i", "i2f", "sat", "round", "other"};
  return names[static_cast<size_t>(k)];
}

} // namespace volta::symbolic
