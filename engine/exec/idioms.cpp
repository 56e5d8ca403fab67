#include "engine/exec/idioms.hpp"

namespace volta::exec {

using symbolic::BitOpKind;
using symbolic::ExprId;
using symbolic::Node;
using symbolic::Op;

namespace {
constexpr uint32_t kLog2eHi = 0x3FB8AA3B;   // log2(e) rounded to f32
constexpr uint32_t kLog2eLo = 0x32A57060;   // log2(e) - kLog2eHi, rounded
constexpr uint32_t kScaleIn = 0x3BBB989D;   // log2(e) / 252
constexpr uint32_t kHalf = 0x3F000000;      // 0.5
constexpr uint32_t k252 = 0x437C0000;       // 252
constexpr uint32_t kMagic = 0x4B400001;     // 1.5 * 2^23 + 1
constexpr uint32_t kMagicBias = 0xCB40007F; // -(1.5 * 2^23 + 127)
} // namespace

bool IdiomLifter::is_const(ExprId id, uint32_t f32_bits) const {
  auto& s = b_.store();
  if (s.op(id) != Op::Const)
    return false;
  auto expected = symbolic::rational_from_f32_bits(f32_bits);
  return expected && s.rational(id) == *expected;
}

bool IdiomLifter::is_int(ExprId id, long value) const {
  auto& s = b_.store();
  return s.op(id) == Op::Const && s.rational(id) == value;
}

ExprId IdiomLifter::lifted(const char* idiom, ExprId x) {
  ++counts_[idiom];
  return b_.unary(Op::Exp, x);
}

ExprId IdiomLifter::symexp(ExprId x) {
  return lifted("__symexpf", x);
}

ExprId IdiomLifter::ex2(ExprId t) {
  auto& s = b_.store();
  const Node n = s.node(t);
  if (n.op == Op::NegInf)
    return s.constant(0); // 2^-inf = 0
  if (n.op == Op::PosInf)
    return s.pos_inf();
  if (n.op == Op::Mul) {
    if (is_const(n.b, kLog2eHi))
      return lifted("__expf", n.a);
    if (is_const(n.a, kLog2eHi))
      return lifted("__expf", n.b);
  }
  // Part of the accurate expf sequence: keep ex2 until the multiply by the scale lifts it.
  if (n.op == Op::Fma && (is_const(n.b, kLog2eLo) || is_const(n.b, kLog2eHi))) {
    return b_.unary(Op::Ex2, t);
  }
  ++counts_["exp2f"];
  return b_.unary(Op::Exp, b_.mul(t, s.intern(Node{Op::Ln2})));
}

ExprId IdiomLifter::accurate_expf_argument(ExprId p, ExprId scale) {
  auto& s = b_.store();
  // Every multiply and fma asks: check the operators in the dense meta array first.
  if (s.op(p) != Op::Ex2 || s.op(scale) != Op::BitsFloat)
    return 0;
  const Node pn = s.node(p);
  // scale = the f32 whose bits are bits(j) << 23
  const Node bf = s.node(scale);
  if (bf.aux != 2 || s.op(bf.a) != Op::BitOp)
    return 0;
  const Node sn = s.node(bf.a);
  if (static_cast<BitOpKind>(sn.aux & 31) != BitOpKind::Shl ||
      symbolic::IntType::from_code(static_cast<uint8_t>(sn.aux >> 5)).width() != 32)
    return 0;
  if (!is_int(sn.b, 23))
    return 0;
  const Node jb = s.node(sn.a);
  if (jb.op != Op::FloatBits || jb.aux != 2)
    return 0;
  const ExprId j = jb.a;
  // f = fma(x, lo, fma(x, hi, -(j + bias)))
  const Node f = s.node(pn.a);
  if (f.op != Op::Fma || !is_const(f.b, kLog2eLo))
    return 0;
  const ExprId x = f.a;
  const Node f1 = s.node(f.c);
  if (f1.op != Op::Fma || f1.a != x || !is_const(f1.b, kLog2eHi))
    return 0;
  const Node nk = s.node(f1.c);
  if (nk.op != Op::Neg)
    return 0;
  const Node k = s.node(nk.a);
  if (k.op != Op::Add || k.a != j || !is_const(k.b, kMagicBias))
    return 0;
  // j = fma(sat(fma(x, scale_in, 0.5)), 252, magic)
  const Node jn = s.node(j);
  if (jn.op != Op::Fma || !is_const(jn.b, k252) || !is_const(jn.c, kMagic))
    return 0;
  // sat(t) = min(max(t, 0), 1): the bounds are part of the idiom (a clamp to [-1, 1] is not
  // cvt.sat and does not compute exp).
  const Node mn = s.node(jn.a);
  if (mn.op != Op::Min || !is_int(mn.b, 1))
    return 0;
  const Node mx = s.node(mn.a);
  if (mx.op != Op::Max || !is_int(mx.b, 0))
    return 0;
  const Node t = s.node(mx.a);
  if (t.op != Op::Fma || t.a != x || !is_const(t.b, kScaleIn) || !is_const(t.c, kHalf))
    return 0;
  return x;
}

ExprId IdiomLifter::mul(ExprId a, ExprId b) {
  if (ExprId x = accurate_expf_argument(a, b))
    return lifted("expf", x);
  if (ExprId x = accurate_expf_argument(b, a))
    return lifted("expf", x);
  return b_.mul(a, b);
}

ExprId IdiomLifter::fma(ExprId a, ExprId b, ExprId c) {
  auto& s = b_.store();
  // The accurate-expf pair has an ex2 on one side; most fmas (reductions) have none. Checked
  // here as well as in accurate_expf_argument: skipping its two calls saves ~5% of a GEMM run.
  if (s.op(a) != Op::Ex2 && s.op(b) != Op::Ex2)
    return b_.fma(a, b, c);
  if (ExprId x = accurate_expf_argument(a, b))
    return b_.add(lifted("expf", x), c);
  if (ExprId x = accurate_expf_argument(b, a))
    return b_.add(lifted("expf", x), c);
  return b_.fma(a, b, c);
}

} // namespace volta::exec
