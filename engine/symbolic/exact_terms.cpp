#include "engine/symbolic/exact_terms.hpp"

#include "engine/symbolic/int_semantics.hpp"
#include "engine/symbolic/post_order.hpp"
#include "support/invariant.hpp"

namespace volta::symbolic {

bool ExactTerms::exact_operation(ExprId id, const Node& n) const {
  if (store_.taint(id) & kTaintIdealized)
    return false; // a lifted idiom: instruction sequences that round
  if (has_float_mods(n.op) && FloatMods::of(n.aux).ftz)
    return false; // a subnormal operand is flushed to zero
  if ((n.op == Op::RealToInt || n.op == Op::RoundReal) && rounding_flushes(n.aux) &&
      !flushing_roundings_)
    return false; // likewise: cvt.rmi.ftz of -2^-130 is 0, floor(-2^-130) is -1
  switch (op_info(n.op).exact) {
  case OpExactness::Never:
    return false;
  case OpExactness::Always:
    return true;
  case OpExactness::ByAux: {
    VOLTA_ASSERT(n.op == Op::IntToReal, "only IntToReal's exactness depends on its aux");
    // Every integer of the source type is a value of the format (aux: source type code in bits
    // 0-2, format in bits 3-4; Builder::int_to_real).
    const IntType source = IntType::from_code(n.aux & 7);
    const auto format = static_cast<FloatFormat>((n.aux >> 3) & 3);
    return static_cast<int>(source.width()) - (source.is_signed ? 1 : 0) <=
           format_precision(format);
  }
  }
  return false;
}

bool ExactTerms::exact(ExprId root) {
  if (root == kNoExpr)
    return false;
  post_order(
      store_, root, [&](ExprId id) { return memo_.contains(id); },
      [&](ExprId id, const Node& n) {
        if (exact_operation(id, n))
          return true;
        memo_.emplace(id, false); // not exact whatever its operands are: no need to look below
        return false;
      },
      [&](ExprId id) {
        if (memo_.contains(id))
          return;
        const Node& n = store_.node(id);
        bool all = true;
        const ExprId kids[3] = {n.a, n.b, n.c};
        for (int i = 0; i < child_count(n.op) && all; ++i)
          all = kids[i] == kNoExpr || memo_.at(kids[i]);
        memo_.emplace(id, all);
      });
  return memo_.at(root);
}

} // namespace volta::symbolic
