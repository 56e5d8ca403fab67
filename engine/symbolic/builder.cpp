#include "engine/symbolic/builder.hpp"

namespace volta::symbolic {

namespace {
bool is_sum(const ExprStore& s, ExprId id) {
  const Op op = s.op(id);
  return op == Op::Add || op == Op::Sub || op == Op::Fma;
}
} // namespace

// A sum that extends another sum is a link of a reduction chain: new by construction, so it is
// appended without a table lookup.
ExprId Builder::chain(Op op, ExprId a, ExprId b, ExprId c, bool link) {
  const Node n{op, 0, 0, a, b, c};
  if (!link)
    return s_.intern(n);
  return stream_ ? s_.append(n, *stream_) : s_.append(n);
}

ExprId Builder::add(ExprId a, ExprId b) {
  if (is_const(a) && is_const(b))
    return s_.constant(value(a) + value(b));
  return chain(Op::Add, a, b, kNoExpr, is_sum(s_, a) || is_sum(s_, b));
}

ExprId Builder::sub(ExprId a, ExprId b) {
  if (is_const(a) && is_const(b))
    return s_.constant(value(a) - value(b));
  return chain(Op::Sub, a, b, kNoExpr, is_sum(s_, a) || is_sum(s_, b));
}

ExprId Builder::mul(ExprId a, ExprId b) {
  if (is_const(a) && is_const(b))
    return s_.constant(value(a) * value(b));
  return make(Op::Mul, a, b);
}

ExprId Builder::div(ExprId a, ExprId b) {
  if (is_const(a) && is_const(b) && value(b) != 0)
    return s_.constant(value(a) / value(b));
  return make(Op::Div, a, b);
}

ExprId Builder::fma(ExprId a, ExprId b, ExprId c) {
  if (is_const(a) && is_const(b) && is_const(c)) {
    return s_.constant(value(a) * value(b) + value(c));
  }
  return chain(Op::Fma, a, b, c, is_sum(s_, c));
}

ExprId Builder::neg(ExprId a) {
  if (is_const(a))
    return s_.constant(-value(a));
  if (s_.op(a) == Op::PosInf)
    return s_.neg_inf();
  if (s_.op(a) == Op::NegInf)
    return s_.pos_inf();
  return make(Op::Neg, a);
}

ExprId Builder::abs(ExprId a) {
  if (is_const(a))
    return s_.constant(::abs(value(a)));
  return make(Op::Abs, a);
}

ExprId Builder::min(ExprId a, ExprId b) {
  if (is_const(a) && is_const(b))
    return value(a) <= value(b) ? a : b;
  if (s_.op(a) == Op::PosInf)
    return b;
  if (s_.op(b) == Op::PosInf)
    return a;
  if (a == b)
    return a;
  return make(Op::Min, a, b);
}

ExprId Builder::max(ExprId a, ExprId b) {
  if (is_const(a) && is_const(b))
    return value(a) >= value(b) ? a : b;
  if (s_.op(a) == Op::NegInf)
    return b;
  if (s_.op(b) == Op::NegInf)
    return a;
  if (a == b)
    return a;
  return make(Op::Max, a, b);
}

ExprId Builder::unary(Op op, ExprId a) {
  if (op == Op::Exp && s_.op(a) == Op::NegInf)
    return s_.constant(0);
  if (op == Op::Ex2 && s_.op(a) == Op::NegInf)
    return s_.constant(0);
  if (is_const(a) && value(a) == 0 && (op == Op::Exp || op == Op::Ex2))
    return s_.constant(1);
  if (is_const(a) && op == Op::Rcp && value(a) != 0)
    return s_.constant(1 / value(a));
  return make(op, a);
}

ExprId Builder::cmp(CmpKind k, ExprId a, ExprId b) {
  return make(Op::Cmp, a, b, kNoExpr, static_cast<uint8_t>(k));
}

ExprId Builder::select(ExprId cond, ExprId if_true, ExprId if_false) {
  if (if_true == if_false)
    return if_true;
  return make(Op::Select, cond, if_true, if_false);
}

ExprId Builder::boolean(Op op, ExprId a, ExprId b) {
  return make(op, a, b);
}

ExprId Builder::bool_not(ExprId a) {
  if (s_.op(a) == Op::Not)
    return s_.node(a).a;
  return make(Op::Not, a);
}

ExprId Builder::pack(ExprId low, ExprId high, int half_bits) {
  // Packing the two halves of one value gives the value back.
  const Node& l = s_.node(low);
  const Node& h = s_.node(high);
  if (l.op == Op::Extract && h.op == Op::Extract && l.a == h.a && l.aux == 0 &&
      l.b == static_cast<uint32_t>(half_bits) && h.aux == half_bits &&
      h.b == static_cast<uint32_t>(half_bits)) {
    return l.a;
  }
  return make(Op::Pack, low, high, kNoExpr, static_cast<uint8_t>(half_bits));
}

ExprId Builder::extract(ExprId value, int bit_offset, int width) {
  const Node& n = s_.node(value);
  if (n.op == Op::Pack) {
    const int half = n.aux;
    if (bit_offset == 0 && width == half)
      return n.a;
    if (bit_offset == half && width == half)
      return n.b;
    if (bit_offset + width <= half)
      return extract(n.a, bit_offset, width);
    if (bit_offset >= half)
      return extract(n.b, bit_offset - half, width);
  }
  if (n.op == Op::RawBits) {
    const uint64_t bits = (uint64_t{n.b} << 32 | n.a) >> bit_offset;
    const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    return s_.raw_bits(bits & mask, width);
  }
  return make(Op::Extract, value, static_cast<uint32_t>(width), kNoExpr,
              static_cast<uint8_t>(bit_offset));
}

ExprId Builder::bitop(BitOpKind k, ExprId a, ExprId b, ExprId c, uint8_t extra) {
  // The kind and an extra byte (e.g. a type width) share aux: kind in the low 5 bits.
  return make(Op::BitOp, a, b, c, static_cast<uint8_t>(static_cast<uint8_t>(k) | (extra << 5)));
}

ExprId Builder::saturate(ExprId a) {
  if (is_const(a)) {
    if (value(a) < 0)
      return s_.constant(0);
    if (value(a) > 1)
      return s_.constant(1);
    return a;
  }
  return min(max(a, s_.constant(0)), s_.constant(1));
}

ExprId Builder::relu(ExprId a) {
  return max(a, s_.constant(0));
}

} // namespace volta::symbolic
