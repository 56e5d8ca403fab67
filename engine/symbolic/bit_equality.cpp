#include "engine/symbolic/bit_equality.hpp"

#include <utility>

#include "engine/symbolic/post_order.hpp"
#include "support/invariant.hpp"

namespace volta::symbolic {
namespace {

// Values whose bits are not a function of their term (bit_equality.hpp).
constexpr uint16_t kUnknownBits =
    kTaintIdealized | kTaintUndef | kTaintAtomicResult | kTaintSchedule;

// A product without a rounding mode, negated or not: ptxas may contract it into the add that
// consumes it.
bool contractible_product(const ExprStore& s, ExprId id) {
  if (s.op(id) == Op::Neg)
    id = s.node(id).a;
  if (s.op(id) != Op::Mul)
    return false;
  return FloatMods::of(s.node(id).aux).mode == FloatMode::Default;
}

} // namespace

bool BitEquality::commutes(const Node& n) const {
  switch (n.op) {
  case Op::Add:
  case Op::Mul:
  case Op::Fma: {
    const FloatMods m = FloatMods::of(n.aux);
    if (m.format != kFormatF32)
      return false;
    if (n.op == Op::Add && m.mode == FloatMode::Default &&
        (contractible_product(s_, n.a) || contractible_product(s_, n.b)))
      return false;
    return true;
  }
  case Op::IAdd:
  case Op::IMul:
  case Op::And:
  case Op::Or:
  case Op::Xor:
    return true;
  case Op::Cmp:
  case Op::ICmp: {
    const auto kind = static_cast<CmpKind>(n.aux & 7);
    return kind == CmpKind::Eq || kind == CmpKind::Ne;
  }
  case Op::BitOp: {
    if (n.c != kNoExpr)
      return false;
    switch (static_cast<BitOpKind>(n.aux & 31)) {
    case BitOpKind::And:
    case BitOpKind::Or:
    case BitOpKind::Xor:
    case BitOpKind::Min:
    case BitOpKind::Max:
    case BitOpKind::MulHi:
      return true;
    default:
      return false;
    }
  }
    // leaves
  case Op::Const:
  case Op::Input:
  case Op::Param:
  case Op::Undef:
  case Op::PosInf:
  case Op::NegInf:
  case Op::RawBits:
  case Op::Ln2:
  // arithmetic over the reals
  case Op::Sub:
  case Op::Div:
  case Op::Neg:
  case Op::Abs:
  case Op::Min:
  case Op::Max:
  case Op::Rcp:
  case Op::Sqrt:
  case Op::Rsqrt:
  case Op::Exp:
  case Op::Ex2:
  case Op::Lg2:
  case Op::Sin:
  case Op::Cos:
  case Op::Tanh:
  case Op::Narrow:
  // predicates and selects over symbolic values
  case Op::Not:
  case Op::Select:
  // bit-level views of symbolic values
  case Op::Pack:
  case Op::Extract:
  case Op::AtomicResult:
  // integer data
  case Op::INeg:
  // conversions between the types, each its own operator
  case Op::IntToReal:
  case Op::RealToInt:
  case Op::RoundReal:
  case Op::FloatBits:
  case Op::BitsFloat:
  case Op::Fresh:
    return false;
  }
  unknown_op(n.op); // a value outside ops.def
}

uint32_t BitEquality::compute(ExprId id) {
  const Node& n = s_.node(id);
  if ((n.taint & kUnknownBits) || n.op == Op::Fresh || n.op == Op::Undef ||
      n.op == Op::AtomicResult)
    return 0;
  Key key{static_cast<uint8_t>(n.op), n.aux, n.a, n.b, n.c};
  const int children = child_count(n.op);
  uint32_t* slots[3] = {&key.a, &key.b, &key.c};
  for (int i = 0; i < children; ++i) {
    if (*slots[i] == kNoExpr)
      continue; // an absent operand (BitOp): 0 in the key as well
    const uint32_t* child = memo_.find(*slots[i]);
    VOLTA_ASSERT(child != nullptr, "a visited child has its bit view");
    if (*child == 0)
      return 0;
    *slots[i] = *child;
  }
  if (commutes(n) && key.b < key.a)
    std::swap(key.a, key.b);
  const auto [it, inserted] = classes_.try_emplace(key, static_cast<uint32_t>(classes_.size() + 1));
  return it->second;
}

uint32_t BitEquality::class_locked(ExprId id) {
  if (const uint32_t* known = memo_.find(id))
    return *known;
  post_order(
      s_, id, [&](ExprId x) { return memo_.find(x) != nullptr; },
      [&](ExprId, const Node& n) { return !(n.taint & kUnknownBits); },
      [&](ExprId x) { memo_.set(x, compute(x)); });
  return *memo_.find(id);
}

uint32_t BitEquality::class_of(ExprId id) {
  std::lock_guard guard(mutex_);
  return class_locked(id);
}

bool BitEquality::same_bits(ExprId a, ExprId b) {
  // The same node is the same bits unless its bits are unknown (no memo needed to tell).
  if (a == b)
    return !(s_.taint(a) & kUnknownBits) && s_.op(a) != Op::Fresh && s_.op(a) != Op::Undef &&
           s_.op(a) != Op::AtomicResult;
  std::lock_guard guard(mutex_);
  const uint32_t ca = class_locked(a);
  return ca != 0 && ca == class_locked(b);
}

} // namespace volta::symbolic
