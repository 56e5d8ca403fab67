#include "engine/symbolic/builder.hpp"

#include <unordered_set>

#include "engine/symbolic/float_fold.hpp"
#include "engine/symbolic/int_semantics.hpp"

namespace volta::symbolic {

namespace {
bool is_sum(const ExprStore& s, ExprId id) {
  const Op op = s.op(id);
  return op == Op::Add || op == Op::Sub || op == Op::Fma;
}
} // namespace

// A sum that extends another sum is a link of a reduction chain: new by construction, so it is
// appended without a table lookup.
ExprId Builder::chain(Op op, ExprId a, ExprId b, ExprId c, bool link, FloatMods m) {
  const Node n{op, m.aux(), 0, a, b, c};
  if (!link)
    return real_op(op, a, b, c, m);
  const ExprId r = stream_ ? s_.append(n, *stream_) : s_.append(n);
  return (s_.taint(r) & kTaintInfinity) ? logged(r) : r; // see real_op
}

ExprId Builder::real_op(Op op, ExprId a, ExprId b, ExprId c, FloatMods m) {
  const ExprId r = s_.intern(Node{op, m.aux(), 0, a, b, c});
  // inf - inf, 0 * inf and inf / inf are domain conditions (docs/semantics.md, "Domains"): the
  // operation's line is needed where an operand may be infinite.
  if ((op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Fma || op == Op::Div) &&
      (s_.taint(r) & kTaintInfinity))
    return logged(r);
  return r;
}

ExprId Builder::unique(Node n) {
  return stream_ ? s_.append(n, *stream_) : s_.append(n);
}

namespace {
// The folded node, or kNoExpr when `c` does not fold.
ExprId node_of(ExprStore& s, const std::optional<FloatConst>& c) {
  return c ? float_const_node(s, *c) : kNoExpr;
}
} // namespace

namespace {
// An infinity plus a value that is certainly finite where it is defined and whose definedness
// nothing asks (no partial operation below it: dropping it drops no domain condition) is that
// infinity, on the device as over the extended reals.
bool finite_and_total(const ExprStore& s, ExprId id) {
  return !(s.taint(id) & (kTaintInfinity | kTaintNaN | kTaintPartial | kValueTaints));
}
} // namespace

ExprId Builder::add(ExprId a, ExprId b, FloatMods m) {
  if (is_infinity(s_, a) && finite_and_total(s_, b))
    return a;
  if (is_infinity(s_, b) && finite_and_total(s_, a))
    return b;
  if (is_float_const(s_, a) && is_float_const(s_, b)) {
    if (const ExprId r = node_of(s_, fold_add(*float_const(s_, a), *float_const(s_, b), m)))
      return r;
    return real_op(Op::Add, a, b, kNoExpr, m);
  }
  return chain(Op::Add, a, b, kNoExpr, is_sum(s_, a) || is_sum(s_, b), m);
}

ExprId Builder::sub(ExprId a, ExprId b, FloatMods m) {
  if (is_infinity(s_, a) && finite_and_total(s_, b))
    return a;
  if (is_infinity(s_, b) && finite_and_total(s_, a))
    return float_const_node(s_, negated(*float_const(s_, b)));
  if (is_float_const(s_, a) && is_float_const(s_, b)) {
    if (const ExprId r =
            node_of(s_, fold_add(*float_const(s_, a), negated(*float_const(s_, b)), m)))
      return r;
    return real_op(Op::Sub, a, b, kNoExpr, m);
  }
  return chain(Op::Sub, a, b, kNoExpr, is_sum(s_, a) || is_sum(s_, b), m);
}

ExprId Builder::mul(ExprId a, ExprId b, FloatMods m) {
  if (is_float_const(s_, a) && is_float_const(s_, b)) {
    if (const ExprId r = node_of(s_, fold_mul(*float_const(s_, a), *float_const(s_, b), m)))
      return r;
  }
  // An infinity times ln 2 (exp2f(x) lifted to exp(x ln 2) of a masked score): the infinity.
  if (is_infinity(s_, a) && s_.op(b) == Op::Ln2)
    return a;
  if (is_infinity(s_, b) && s_.op(a) == Op::Ln2)
    return b;
  return real_op(Op::Mul, a, b, kNoExpr, m);
}

ExprId Builder::div(ExprId a, ExprId b, FloatMods m) {
  if (is_float_const(s_, a) && is_float_const(s_, b)) {
    if (const ExprId r = node_of(s_, fold_div(*float_const(s_, a), *float_const(s_, b), m)))
      return r;
  }
  return logged(real_op(Op::Div, a, b, kNoExpr, m));
}

ExprId Builder::fma(ExprId a, ExprId b, ExprId c, FloatMods m) {
  const bool ka = is_float_const(s_, a), kb = is_float_const(s_, b);
  // An infinite product (an infinity times a nonzero constant) plus a finite value, or a
  // finite product plus an infinity: the infinity (FlashAttention's scaled masked scores).
  if (ka && kb && (is_infinity(s_, a) || is_infinity(s_, b)) && finite_and_total(s_, c)) {
    const auto p = fold_mul(*float_const(s_, a), *float_const(s_, b), FloatMods{});
    if (p && p->is_inf())
      return float_const_node(s_, *p);
  }
  if (is_infinity(s_, c) && finite_and_total(s_, a) && finite_and_total(s_, b))
    return c;
  if (ka && kb && is_float_const(s_, c)) {
    if (const ExprId r =
            node_of(s_, fold_fma(*float_const(s_, a), *float_const(s_, b), *float_const(s_, c), m)))
      return r;
    return real_op(Op::Fma, a, b, c, m);
  }
  // The head of a reduction (a product of two data onto a constant, `fma(q0, k0, 0)`) is new by
  // construction as well, in practice: the attention reference computes each of its million
  // scores twice, and a table lookup for each head cost a fifth of its run.
  const bool head = is_const(c) && !is_const(a) && !is_const(b);
  return chain(Op::Fma, a, b, c, head || is_sum(s_, c), m);
}

ExprId Builder::neg(ExprId a, FloatMods m) {
  if (!m.ftz && is_float_const(s_, a))
    return float_const_node(s_, negated(*float_const(s_, a)));
  return make(Op::Neg, a, kNoExpr, kNoExpr, m.aux());
}

ExprId Builder::abs(ExprId a, FloatMods m) {
  if (!m.ftz && is_float_const(s_, a))
    return float_const_node(s_, absolute(*float_const(s_, a)));
  return make(Op::Abs, a, kNoExpr, kNoExpr, m.aux());
}

// min(a, a) and max(a, a) are `a` itself, bits included, unless `a` may be a NaN (the result
// is then the canonical NaN, not a's payload: fuzzer finding 13:11407, max.f32 of a NaN view of
// integer bits stored as bits) or .ftz flushes a subnormal `a` to zero.
bool Builder::same_operands_fold(ExprId a, FloatMods m) const {
  return !m.ftz && (s_.taint(a) & kTaintNaN) == 0;
}

ExprId Builder::min(ExprId a, ExprId b, FloatMods m) {
  if (!m.ftz && is_float_const(s_, a) && is_float_const(s_, b))
    return float_const_node(s_, pick_min_max(*float_const(s_, a), *float_const(s_, b), false));
  // min(+inf, b) is b, unless b is a NaN that min would drop for the +inf.
  if (s_.op(a) == Op::PosInf && (m.nan_propagating || !(s_.taint(b) & kTaintNaN)))
    return b;
  if (s_.op(b) == Op::PosInf && (m.nan_propagating || !(s_.taint(a) & kTaintNaN)))
    return a;
  if (a == b && same_operands_fold(a, m))
    return a;
  return make(Op::Min, a, b, kNoExpr, m.aux());
}

ExprId Builder::max(ExprId a, ExprId b, FloatMods m) {
  if (!m.ftz && is_float_const(s_, a) && is_float_const(s_, b))
    return float_const_node(s_, pick_min_max(*float_const(s_, a), *float_const(s_, b), true));
  // max(-inf, b) is b, unless b is a NaN that max would drop for the -inf.
  if (s_.op(a) == Op::NegInf && (m.nan_propagating || !(s_.taint(b) & kTaintNaN)))
    return b;
  if (s_.op(b) == Op::NegInf && (m.nan_propagating || !(s_.taint(a) & kTaintNaN)))
    return a;
  if (a == b && same_operands_fold(a, m))
    return a;
  return make(Op::Max, a, b, kNoExpr, m.aux());
}

ExprId Builder::unary(Op op, ExprId a, FloatMods m) {
  const bool exp = op == Op::Exp || op == Op::Ex2;
  if (exp && s_.op(a) == Op::NegInf)
    return s_.constant(0L); // ex2(-inf) = +0
  if (exp && is_float_const(s_, a) && float_const(s_, a)->is_zero())
    return s_.constant(1L); // ex2(+-0) = 1
  if (op == Op::Rcp && is_float_const(s_, a)) {
    if (const ExprId r =
            node_of(s_, fold_div(FloatConst::finite(Rational(1)), *float_const(s_, a), m)))
      return r;
  }
  const ExprId r = make(op, a, kNoExpr, kNoExpr, m.aux());
  return op == Op::Rcp || op == Op::Sqrt || op == Op::Rsqrt || op == Op::Lg2 ? logged(r) : r;
}

ExprId Builder::narrow(ExprId a, FloatMods m) {
  if (is_float_const(s_, a)) {
    // .ftz on a conversion flushes a single-precision source (PTX ISA, cvt: "single-precision
    // subnormal inputs and results"), not the f16 or bf16 result: cvt.rz.ftz.f16.f32 of 2^-24 is
    // the f16 subnormal 2^-24 (fuzzer 20:400580: it was folded to 0, a false EQUIVALENT).
    FloatConst c = *float_const(s_, a);
    if (m.ftz && !c.is_inf() && !c.is_zero() && is_subnormal(c, *layout_of_format(kFormatF32)))
      c = FloatConst::finite(Rational(0), c.negative);
    FloatMods rounding = m;
    // A .ftz narrowing to f32 (from f64) flushes its result too; without .ftz the f32 subnormal
    // stays (cvt.rm.f32.f64 of -2^-1074 is -2^-149, fuzzer 21:91471: it was folded to -0, a
    // false EQUIVALENT the cross-check caught).
    rounding.ftz = m.ftz && m.format == kFormatF32;
    if (auto r = round_exact(c, rounding)) {
      // .satfinite (bit 7 of a narrowing's modifiers): an infinity becomes the largest value.
      if (m.nan_propagating && r->is_inf() && layout_of_format(m.format)) {
        const Rational largest = largest_finite(*layout_of_format(m.format));
        r = FloatConst::finite(r->negative ? Rational(-largest) : largest);
      }
      return float_const_node(s_, *r);
    }
  }
  return make(Op::Narrow, a, kNoExpr, kNoExpr, m.aux());
}

ExprId Builder::cmp(CmpKind k, ExprId a, ExprId b, bool unordered) {
  // A finite number against an infinity: decided (no NaN, so ordered and unordered agree), the
  // masks of attention kernels (`m == -INFINITY ? 0 : m`).
  const bool a_inf = is_infinity(s_, a) && finite_and_total(s_, b);
  if (a_inf || (is_infinity(s_, b) && finite_and_total(s_, a))) {
    // The order of a against b: -1 (a below) or 1.
    const int order = a_inf ? (s_.op(a) == Op::NegInf ? -1 : 1) : (s_.op(b) == Op::NegInf ? 1 : -1);
    bool r = false;
    switch (k) {
    case CmpKind::Eq:
      r = false;
      break;
    case CmpKind::Ne:
      r = true;
      break;
    case CmpKind::Lt:
    case CmpKind::Le:
      r = order < 0;
      break;
    case CmpKind::Gt:
    case CmpKind::Ge:
      r = order > 0;
      break;
    }
    return s_.constant(r ? 1L : 0L);
  }
  return make(Op::Cmp, a, b, kNoExpr,
              static_cast<uint8_t>(static_cast<uint8_t>(k) | (unordered ? 8 : 0)));
}

ExprId Builder::select(ExprId cond, ExprId if_true, ExprId if_false, uint8_t aux) {
  if (if_true == if_false)
    return if_true;
  if (is_const(cond))
    return sgn(value(cond)) != 0 ? if_true : if_false;
  return make(Op::Select, cond, if_true, if_false, aux);
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

ExprId Builder::saturate(ExprId a, FloatMods m) {
  // .sat: NaN and -0 become +0, like the clamp max(x, +0) then min(., 1) with fmaxf's rules.
  m.nan_propagating = false;
  return min(max(a, s_.constant(0L), m), s_.constant(1L), m);
}

ExprId Builder::relu(ExprId a, FloatMods m) {
  // .relu keeps a NaN (as the canonical NaN), where fmaxf(NaN, 0) would give 0.
  m.nan_propagating = true;
  return max(a, s_.constant(0L), m);
}

// ---- integer data

namespace {
ValueKind kind_of_node(const ExprStore& s, ExprId id, uint32_t* width);
} // namespace

// A select's kind is its first arm's, or its second's when the first is of any kind (a
// constant): the first leaf of the select tree, arms in order, whose kind is not Any. Walked
// with a visited set: select chains share their arms (each level naming the one below in both),
// and an arm already seen gave Any, or the walk would have ended there.
ValueKind kind_of(const ExprStore& s, ExprId id, uint32_t* width) {
  if (s.node(id).op != Op::Select)
    return kind_of_node(s, id, width);
  // The common case without allocating: the first arms down to a leaf that is not a constant.
  ExprId first = id;
  while (s.node(first).op == Op::Select)
    first = s.node(first).b;
  if (uint32_t w = 0; kind_of_node(s, first, &w) != ValueKind::Any) {
    if (width)
      *width = w;
    return kind_of_node(s, first, nullptr);
  }
  ValueKind kind = ValueKind::Any;
  uint32_t found = 0;
  every_select_leaf(s, id, [&](ExprId leaf) {
    kind = kind_of_node(s, leaf, &found);
    return kind == ValueKind::Any;
  });
  if (width)
    *width = kind == ValueKind::Any ? 0 : found;
  return kind;
}

bool every_select_leaf(const ExprStore& s, ExprId id, const std::function<bool(ExprId)>& visit) {
  std::vector<ExprId> stack{id};
  std::unordered_set<ExprId> seen;
  while (!stack.empty()) {
    const ExprId at = stack.back();
    stack.pop_back();
    if (!seen.insert(at).second)
      continue;
    const Node& n = s.node(at);
    if (n.op == Op::Select) {
      stack.push_back(n.c);
      stack.push_back(n.b); // the first arm first
      continue;
    }
    if (!visit(at))
      return false;
  }
  return true;
}

namespace {
ValueKind kind_of_node(const ExprStore& s, ExprId id, uint32_t* width) {
  const Node& n = s.node(id);
  uint32_t w = 0;
  ValueKind k = ValueKind::Real;
  switch (n.op) {
  case Op::Const:
  case Op::Undef:
    k = ValueKind::Any;
    break;
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg:
    k = ValueKind::Int;
    w = 8u << n.aux;
    break;
  case Op::BitOp:
    k = ValueKind::Int;
    w = IntType::from_code(static_cast<uint8_t>(n.aux >> 5)).width();
    break;
  case Op::RealToInt:
    k = ValueKind::Int;
    w = IntType::from_code(n.aux & 7).width();
    break;
  case Op::FloatBits:
    k = ValueKind::Int;
    w = n.aux == kFormatBF16 ? 16 : 8u << n.aux;
    break;
  case Op::Cmp:
  case Op::ICmp:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
    k = ValueKind::Pred;
    break;
  case Op::Fresh:
  case Op::AtomicResult:
  case Op::RawBits:
    k = ValueKind::Bits;
    w = n.op == Op::RawBits ? n.aux : 0;
    break;
  case Op::Pack:
    k = ValueKind::Bits;
    w = 2u * n.aux;
    break;
  case Op::Extract:
    k = ValueKind::Bits;
    w = n.b;
    break;
    // leaves
  case Op::Input:
  case Op::Param:
  case Op::PosInf:
  case Op::NegInf:
  case Op::Ln2:
  // arithmetic over the reals
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div:
  case Op::Fma:
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
  case Op::Select:
  // conversions between the types, each its own operator
  case Op::IntToReal:
  case Op::RoundReal:
  case Op::BitsFloat:
    break;
  }
  if (width)
    *width = w;
  return k;
}
} // namespace

namespace {
uint64_t low_bits(const mpz_class& z, uint32_t w) {
  mpz_class u = z % (mpz_class(1) << w);
  if (u < 0)
    u += mpz_class(1) << w;
  uint64_t bits = 0;
  mpz_export(&bits, nullptr, -1, sizeof(bits), 0, 0, u.get_mpz_t());
  return bits;
}

Rational rational_of_u64(uint64_t v) {
  return Rational(std::to_string(v));
}
} // namespace

std::optional<uint64_t> Builder::int_value(ExprId id, uint8_t wc) const {
  if (!is_const(id))
    return std::nullopt;
  const Rational& q = value(id);
  if (q.get_den() != 1)
    return std::nullopt;
  return low_bits(q.get_num(), 8u << wc);
}

ExprId Builder::int_const(uint64_t bits, uint8_t wc) {
  const uint64_t value = bits & width_mask(8u << wc);
  if (value <= 64)
    return s_.constant(static_cast<long>(value)); // the store's table of small integers
  return s_.constant(rational_of_u64(value));
}

ExprId Builder::iadd(ExprId a, ExprId b, uint8_t wc) {
  const auto x = int_value(a, wc), y = int_value(b, wc);
  if (x && y)
    return int_const(*x + *y, wc);
  if (x && *x == 0)
    return b;
  if (y && *y == 0)
    return a;
  return make(Op::IAdd, a, b, kNoExpr, wc);
}

ExprId Builder::isub(ExprId a, ExprId b, uint8_t wc) {
  return iadd(a, ineg(b, wc), wc);
}

ExprId Builder::imul(ExprId a, ExprId b, uint8_t wc) {
  const auto x = int_value(a, wc), y = int_value(b, wc);
  if (x && y)
    return int_const(*x * *y, wc);
  if ((x && *x == 0) || (y && *y == 0))
    return int_const(0, wc);
  if (x && *x == 1)
    return b;
  if (y && *y == 1)
    return a;
  return make(Op::IMul, a, b, kNoExpr, wc);
}

ExprId Builder::ineg(ExprId a, uint8_t wc) {
  if (const auto x = int_value(a, wc))
    return int_const(uint64_t{0} - *x, wc);
  const Node& n = s_.node(a);
  if (n.op == Op::INeg && n.aux == wc)
    return n.a;
  return make(Op::INeg, a, kNoExpr, kNoExpr, wc);
}

ExprId Builder::icmp(CmpKind k, IntType type, ExprId a, ExprId b) {
  const auto x = int_value(a, type.width_code), y = int_value(b, type.width_code);
  if (x && y)
    return s_.constant(eval_icmp(k, type.is_signed, type.width(), *x, *y) ? 1 : 0);
  return make(Op::ICmp, a, b, kNoExpr,
              static_cast<uint8_t>(static_cast<uint8_t>(k) | (type.is_signed ? 8 : 0) |
                                   (type.width_code << 4)));
}

ExprId Builder::intop(BitOpKind k, IntType type, ExprId a, ExprId b, ExprId c, ExprId d,
                      uint32_t operand_width) {
  // Fold when every operand is a constant (operands of Ext have their own width).
  const bool ext = k == BitOpKind::Ext || k == BitOpKind::ExtSat;
  const uint8_t owc = ext ? width_code(operand_width & 0xff) : type.width_code;
  std::optional<uint64_t> v[4];
  const ExprId ops[4] = {a, b, c, d};
  bool all_const = true;
  for (int i = 0; i < 4; ++i) {
    if (ops[i] == kNoExpr) {
      v[i] = 0;
      continue;
    }
    v[i] = int_value(ops[i], i == 0 ? owc : 3);
    all_const &= v[i].has_value();
  }
  if (all_const) {
    if (auto r = eval_bitop(k, type, operand_width, *v[0], *v[1], *v[2], *v[3]))
      return int_const(*r, type.width_code);
  }
  if (k == BitOpKind::Ext && operand_width == type.width())
    return a;
  if (ext && s_.op(a) == Op::Select) {
    // An extension of a select of two constants is a select of their extensions (st.s8 of
    // selp.b16 0xFFFF or 0: 0xFF or 0): each arm folds, exactly, and the element is a select
    // of the stored values rather than an operation the prover must see through.
    const Node n = s_.node(a);
    if (int_value(n.b, owc) && int_value(n.c, owc))
      return select(n.a, intop(k, type, n.b, b, c, d, operand_width),
                    intop(k, type, n.c, b, c, d, operand_width), n.aux);
  }
  if (k == BitOpKind::Ext && type.width() < operand_width) {
    // A truncation of an extension of x to no more than x's own width is a truncation of x
    // (the low bits of an extension are x's). Nothing else folds: sext(trunc(x)) is not x.
    const Node& n = s_.node(a);
    if (n.op == Op::BitOp && static_cast<BitOpKind>(n.aux & 31) == BitOpKind::Ext &&
        n.c != kNoExpr && is_const(n.c)) {
      const auto inner_from = int_value(n.c, 3);
      if (inner_from && type.width() <= *inner_from) {
        return type.width() == *inner_from
                   ? n.a
                   : intop(k, type, n.a, b, c, d, static_cast<uint32_t>(*inner_from));
      }
    }
  }
  ExprId third = c;
  if (d != kNoExpr)
    third = make(Op::BitOp, c, d, kNoExpr, static_cast<uint8_t>(BitOpKind::Tuple));
  if (ext) // the source width (and signedness) is part of the operation's identity
    third = s_.constant(static_cast<long>(operand_width));
  const ExprId r = make(Op::BitOp, a, b, third,
                        static_cast<uint8_t>(static_cast<uint8_t>(k) | (type.code() << 5)));
  return k == BitOpKind::Div || k == BitOpKind::Rem ? logged(r) : r;
}

ExprId Builder::int_to_real(ExprId a, IntType source, uint8_t format, RoundKind rounding) {
  if (const auto x = int_value(a, source.width_code)) {
    const mpz_class z = source.is_signed
                            ? mpz_class(std::to_string(sign_extend(*x, source.width())))
                            : mpz_class(std::to_string(*x));
    if (auto r = round_integer_to_format(z, static_cast<FloatFormat>(format), rounding))
      return s_.constant(Rational(*r));
    // Overflow (only f16 can overflow from an integer): an infinity or the largest finite value,
    // by the mode (cvt.rn.f16.u32 of 70000 is +inf).
    static constexpr uint8_t kCode[] = {2, 1, 3, kFormatBF16}; // FloatFormat -> FloatMods code
    static constexpr FloatMode kMode[] = {FloatMode::Rn, FloatMode::Rz, FloatMode::Rm,
                                          FloatMode::Rp};
    const FloatMods m{kMode[static_cast<int>(rounding)], false, kCode[format & 3]};
    if (auto r = round_exact(FloatConst::finite(Rational(z)), m))
      return float_const_node(s_, *r);
  }
  return make(
      Op::IntToReal, a, kNoExpr, kNoExpr,
      static_cast<uint8_t>(source.code() | (format << 3) | (static_cast<uint8_t>(rounding) << 5)));
}

ExprId Builder::real_to_int(ExprId a, RoundKind rounding, IntType destination, bool flush) {
  const uint32_t w = destination.width();
  const mpz_class lo = destination.is_signed ? -(mpz_class(1) << (w - 1)) : mpz_class(0);
  const mpz_class hi =
      destination.is_signed ? (mpz_class(1) << (w - 1)) - 1 : (mpz_class(1) << w) - 1;
  if (s_.is_neg_zero(a))
    return int_const(0, destination.width_code);
  if (is_const(a)) {
    mpz_class z = round_rational(value(a), rounding);
    z = z < lo ? lo : (z > hi ? hi : z); // the hardware saturates
    return int_const(low_bits(z, w), destination.width_code);
  }
  // An integer's value rounds to itself; when the destination holds every value of the source
  // type, nothing saturates either: the conversion back is an extension (or the identity).
  if (const Node& n = s_.node(a); n.op == Op::IntToReal) {
    const IntType source = IntType::from_code(n.aux & 7);
    // Only a conversion that is exact for every value of the source rounds to itself.
    const bool exact = static_cast<int>(source.width()) - (source.is_signed ? 1 : 0) <=
                       format_precision(static_cast<FloatFormat>((n.aux >> 3) & 3));
    const bool fits = destination.is_signed == source.is_signed
                          ? w >= source.width()
                          : (destination.is_signed && w > source.width());
    if (fits && exact)
      return intop(BitOpKind::Ext, IntType{destination.width_code, source.is_signed}, n.a, kNoExpr,
                   kNoExpr, kNoExpr, source.width());
  }
  if (s_.op(a) == Op::PosInf)
    return int_const(low_bits(hi, w), destination.width_code);
  if (s_.op(a) == Op::NegInf)
    return int_const(low_bits(lo, w), destination.width_code);
  // (A constant the flush changes is refused before: exec's ftz_flushes_constant.)
  const uint8_t flushes = flush && flush_changes_rounding(rounding) ? kRoundFlushes : 0;
  const Node n{
      Op::RealToInt,
      static_cast<uint8_t>(destination.code() | (static_cast<uint8_t>(rounding) << 3) | flushes),
      0,
      a,
      kNoExpr,
      kNoExpr};
  // The integer a lifted idiom rounds to depends on the bits the idiom's instructions give.
  return (s_.taint(a) & kTaintIdealized) ? unique(n) : s_.intern(n);
}

ExprId Builder::round_real(ExprId a, RoundKind rounding, bool flush) {
  if (is_const(a))
    return s_.constant(Rational(round_rational(value(a), rounding)));
  if (s_.op(a) == Op::PosInf || s_.op(a) == Op::NegInf)
    return a;
  const Node& n = s_.node(a);
  if (n.op == Op::RoundReal || n.op == Op::IntToReal)
    return a; // already integral
  const uint8_t flushes = flush && flush_changes_rounding(rounding) ? kRoundFlushes : 0;
  return make(Op::RoundReal, a, kNoExpr, kNoExpr, static_cast<uint8_t>(rounding) | flushes);
}

ExprId Builder::float_bits(ExprId real, uint8_t wc) {
  const Node& n = s_.node(real);
  if (n.op == Op::BitsFloat && n.aux == wc)
    return n.a;
  // A constant's bits, exactly (the width of the integer: bf16 is 16 bits).
  if (const auto c = is_float_const(s_, real) ? float_const(s_, real) : std::nullopt;
      c && wc >= 1 && wc <= kFormatBF16) {
    const IeeeLayout layout = *layout_of_format(wc);
    const int width = 1 + layout.exp_bits + layout.frac_bits;
    const uint8_t int_wc = wc == kFormatBF16 ? 1 : wc;
    const uint64_t sign = c->negative ? uint64_t{1} << (width - 1) : 0;
    if (c->is_inf()) // all-ones exponent, zero fraction
      return int_const(sign | (((uint64_t{1} << layout.exp_bits) - 1) << layout.frac_bits), int_wc);
    if (auto bits = exact_ieee_bits(::abs(c->value), layout))
      return int_const(sign | *bits, int_wc);
  }
  const Node bits{Op::FloatBits, wc, 0, real, kNoExpr, kNoExpr};
  // The bits of a lifted idiom are the idiom's instructions', which the lifted node does not
  // record: never the same term as another kernel's (docs/semantics.md).
  return (s_.taint(real) & kTaintIdealized) ? unique(bits) : s_.intern(bits);
}

ExprId Builder::bits_float(ExprId bits, uint8_t wc) {
  const Node& n = s_.node(bits);
  // The bits of a float read back as that float are the float. Not for the elements of an
  // integer array: their integer view is the datum, and its float view any IEEE value.
  if (n.op == Op::FloatBits && n.aux == wc &&
      !(s_.op(n.a) == Op::Input && s_.integer_array(s_.node(n.a).a)))
    return n.a;
  if (const auto x = int_value(bits, wc == kFormatBF16 ? 1 : wc)) {
    if (wc == kFormatBF16) {
      if (auto id = s_.bf16_bits(static_cast<uint16_t>(*x)))
        return *id;
    } else if (wc == 1 || wc == 2 || wc == 3) {
      if (auto id = s_.float_bits(*x, static_cast<int>(8u << wc)))
        return *id;
    }
  }
  return make(Op::BitsFloat, bits, kNoExpr, kNoExpr, wc);
}

} // namespace volta::symbolic
