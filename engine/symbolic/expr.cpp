#include "engine/symbolic/expr.hpp"

#include <cstddef>

namespace volta::symbolic {

const char* op_name(Op op) {
  return op_info(op).printed;
}

const char* cmp_name(CmpKind k) {
  static const char* const names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return names[static_cast<size_t>(k)];
}

const char* bitop_name(BitOpKind k) {
  static const char* const names[] = {
      "shl",      "shr",      "and",     "or",      "xor",   "not",   "cnot",    "mul.hi",
      "mul24.lo", "mul24.hi", "div",     "rem",     "min",   "max",   "abs",     "popc",
      "clz",      "brev",     "bfe",     "bfi",     "prmt",  "lop3",  "shf.l",   "shf.r",
      "sad",      "ext",      "add.sat", "sub.sat", "tuple", "bfind", "ext.sat", "other"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(BitOpKind::Other) + 1);
  return names[static_cast<size_t>(k)];
}

} // namespace volta::symbolic
