#include "engine/exec/idioms.hpp"

#include "engine/symbolic/float_fold.hpp"
#include "engine/symbolic/sign_analysis.hpp"
#include "support/invariant.hpp"

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
// nvcc's accurate tanhf (sm_80, CUDA 13)
constexpr uint32_t kTanhSmall = 0x3F19999A; // 0.6: below it the odd polynomial
constexpr uint32_t kTanhOne = 0x41102CB4;   // ~9.01: above it the result is 1 (copysigned)
constexpr uint32_t kTwoLog2e = 0x4038AA3B;  // 2 log2(e): ex2(2|x| log2 e) = e^(2|x|)
constexpr uint32_t kMinusTwo = 0xC0000000;
constexpr uint32_t kOne = 0x3F800000;
constexpr uint32_t kTanhPoly[4] = {0x3C80F082, 0xBD563CAE, 0x3E085941, 0xBEAAA9ED};
// nvcc's accurate logf (sm_80, CUDA 13)
constexpr uint32_t kLn2 = 0x3F317218;          // ln 2 rounded to f32
constexpr uint32_t kMinNormal = 0x00800000;    // 2^-126
constexpr uint32_t kTwo23 = 0x4B000000;        // 2^23
constexpr uint32_t kMinus23 = 0xC1B80000;      // -23
constexpr uint32_t kTwoMinus23 = 0x34000000;   // 2^-23
constexpr uint32_t kMinusOne = 0xBF800000;     // -1
constexpr uint32_t kPosInf = 0x7F800000;       // +inf (and the bits of the first non-finite)
constexpr uint64_t kLogOffset = 0xC0D55555;    // -0x3F2AAAAB: splits at 2/3 (bits of 0.6666667)
constexpr uint64_t kExponentMask = 0xFF800000; // sign and exponent bits
constexpr uint32_t kLogPoly[9] = {0xBE055027, 0x3E1039F6, 0xBDF8CDCC, 0x3E0F2955, 0xBE2AD8B9,
                                  0x3E4CED0B, 0xBE7FFF22, 0x3EAAAA78, 0xBF000000};
} // namespace

bool IdiomLifter::is_const(ExprId id, uint32_t f32_bits) const {
  auto& s = b_.store();
  if (s.op(id) != Op::Const)
    return false;
  // Constants are hash-consed by value: the constant of those bits is `id` or another number.
  // (The store's cache of float literals answers without building the rational again.)
  const std::optional<ExprId> expected = s.float_bits(f32_bits, 32);
  return expected == id;
}

bool IdiomLifter::is_int(ExprId id, long value) const {
  auto& s = b_.store();
  return s.op(id) == Op::Const && s.rational(id) == value;
}

namespace {
// The modifiers of a lifted node: no rounding of its own, and the lifted mark (kLiftedAux), which
// keeps its bits from ever counting as known (docs/semantics.md, "Floats observed as bits").
const symbolic::FloatMods kLifted = symbolic::FloatMods::of(symbolic::kLiftedAux);
} // namespace

ExprId IdiomLifter::lifted(const char* idiom, ExprId x) {
  ++counts_[idiom];
  return b_.unary(Op::Exp, x, kLifted);
}

ExprId IdiomLifter::symexp(ExprId x) {
  return lifted("__symexpf", x);
}

bool IdiomLifter::same_term(ExprId a, ExprId b) const {
  if (a == b)
    return true;
  if (a == symbolic::kNoExpr || b == symbolic::kNoExpr)
    return false;
  auto& s = b_.store();
  const Node na = s.node(a), nb = s.node(b);
  // The rebuilt sequence has no modifiers: a float operation matches whatever rounding the
  // kernel's has (the lift is an idealization, and its node is marked so), and a comparison
  // matches its unordered form (setp.geu for setp.ge).
  const bool float_op = symbolic::has_float_mods(na.op);
  const uint8_t mask = float_op ? 0 : na.op == Op::Cmp ? 7 : 0xff;
  if (na.op != nb.op || (na.aux & mask) != (nb.aux & mask))
    return false;
  const int n = symbolic::arity(na.op);
  if (n == 0) // leaves are hash-consed: different ids are different leaves
    return false;
  // Fields past the operands (an extract's offset and width, ...) must be equal as they are.
  if ((n < 2 && na.b != nb.b) || (n < 3 && na.c != nb.c))
    return false;
  // The templates are small trees over shared operands: the recursion stops at the first
  // shared (hash-consed) node.
  return same_term(na.a, nb.a) && (n < 2 || same_term(na.b, nb.b)) &&
         (n < 3 || same_term(na.c, nb.c));
}

ExprId IdiomLifter::f32(uint32_t bits) {
  return *b_.store().float_bits(bits, 32);
}

ExprId IdiomLifter::copysign(ExprId a, ExprId b, uint8_t format) {
  VOLTA_ASSERT(format == symbolic::kFormatF32 || format == symbolic::kFormatF64,
               "the exp idioms are lifted in f32 and f64 only");
  const ExprId m = b_.abs(b);
  // A constant's sign bit decides exactly, -0.0's included.
  if (const auto c = symbolic::float_const(b_.store(), a))
    return c->negative ? b_.neg(m) : m;
  symbolic::SignAnalysis signs(b_.store());
  const ExprId negative = signs.nonzero(a)
                              ? b_.cmp(symbolic::CmpKind::Lt, a, b_.store().constant(0L))
                              : b_.icmp(symbolic::CmpKind::Lt, symbolic::IntType{format, true},
                                        b_.float_bits(a, format), b_.store().constant(0L));
  return b_.select(negative, b_.neg(m), m, symbolic::kLiftedAux);
}

ExprId IdiomLifter::accurate_tanhf_argument(ExprId cond, ExprId large, ExprId small) {
  auto& s = b_.store();
  // cond = |x| >= 0.6: cheap checks first (every select of reals asks).
  if (s.op(cond) != Op::Cmp)
    return 0;
  const Node c = s.node(cond);
  if (static_cast<symbolic::CmpKind>(c.aux & 7) != symbolic::CmpKind::Ge || s.op(c.a) != Op::Abs ||
      !is_const(c.b, kTanhSmall) || s.op(small) != Op::Fma)
    return 0;
  const ExprId ax = c.a;
  const ExprId x = s.node(ax).a;
  // Rebuild the whole sequence from x with the builder calls the instructions make: hash-
  // consing makes equal node ids mean equal terms, every constant included.
  const ExprId e = b_.unary(Op::Ex2, b_.mul(ax, f32(kTwoLog2e)));
  const ExprId r = b_.fma(b_.unary(Op::Rcp, b_.add(e, f32(kOne))), f32(kMinusTwo), f32(kOne));
  const ExprId clamped = b_.select(b_.cmp(symbolic::CmpKind::Ge, ax, f32(kTanhOne)), f32(kOne), r);
  if (!same_term(copysign(x, clamped, symbolic::kFormatF32), large))
    return 0;
  const ExprId sq = b_.mul(x, x);
  ExprId p = b_.fma(f32(kTanhPoly[0]), sq, f32(kTanhPoly[1]));
  p = b_.fma(p, sq, f32(kTanhPoly[2]));
  p = b_.fma(p, sq, f32(kTanhPoly[3]));
  p = b_.fma(p, sq, s.constant(0));
  if (!same_term(b_.fma(p, x, x), small))
    return 0;
  return x;
}

ExprId IdiomLifter::log_of(const char* idiom, ExprId x) {
  ++counts_[idiom];
  return b_.mul(b_.unary(Op::Lg2, x, kLifted), b_.store().intern(Node{Op::Ln2}));
}

ExprId IdiomLifter::accurate_logf_argument(ExprId cond, ExprId if_true, ExprId if_false) {
  auto& s = b_.store();
  // cond = (f == 0), if_true = -inf, f = select(x < 2^-126, x * 2^23, x): cheap checks first.
  if (s.op(cond) != Op::Cmp || s.op(if_true) != Op::NegInf || s.op(if_false) != Op::Select)
    return 0;
  const Node c = s.node(cond);
  if (static_cast<symbolic::CmpKind>(c.aux & 7) != symbolic::CmpKind::Eq || !is_int(c.b, 0) ||
      s.op(c.a) != Op::Select)
    return 0;
  const ExprId f = c.a;
  const Node fs = s.node(f);
  if (s.op(fs.a) != Op::Cmp)
    return 0;
  const ExprId x = s.node(fs.a).a;
  // Rebuild the sequence from x, call for call as the instructions build it.
  using symbolic::BitOpKind;
  using symbolic::CmpKind;
  constexpr uint8_t w32 = 2;
  const symbolic::IntType u32{w32, false}, s32{w32, true};
  const ExprId small = b_.cmp(CmpKind::Lt, x, f32(kMinNormal));
  if (!same_term(b_.select(small, b_.mul(x, f32(kTwo23)), x), f))
    return 0;
  const ExprId bias = b_.select(small, f32(kMinus23), s.constant(0));
  const ExprId bits = b_.float_bits(f, w32);
  const ExprId e_bits =
      b_.intop(BitOpKind::And, u32, b_.iadd(bits, b_.int_const(kLogOffset, w32), w32),
               b_.int_const(kExponentMask, w32));
  const ExprId m = b_.bits_float(b_.isub(bits, e_bits, w32), w32);
  const ExprId e =
      b_.fma(b_.int_to_real(e_bits, s32, static_cast<uint8_t>(symbolic::FloatFormat::F32),
                            symbolic::RoundKind::NearestEven),
             f32(kTwoMinus23), bias);
  const ExprId t = b_.add(m, f32(kMinusOne));
  ExprId p = b_.fma(f32(kLogPoly[0]), t, f32(kLogPoly[1]));
  for (size_t i = 2; i < std::size(kLogPoly); ++i)
    p = b_.fma(p, t, f32(kLogPoly[i]));
  const ExprId main = b_.fma(e, f32(kLn2), b_.fma(b_.mul(t, p), t, t));
  const ExprId finite = b_.icmp(CmpKind::Lt, u32, bits, b_.int_const(kPosInf, w32));
  const ExprId inf = f32(kPosInf);
  if (!same_term(b_.select(finite, main, b_.fma(f, inf, inf)), if_false))
    return 0;
  return x;
}

ExprId IdiomLifter::select(ExprId cond, ExprId x, ExprId y) {
  if (ExprId arg = accurate_logf_argument(cond, x, y))
    return log_of("logf", arg);
  if (ExprId arg = accurate_tanhf_argument(cond, x, y)) {
    ++counts_["tanhf"];
    return b_.unary(Op::Tanh, arg, kLifted);
  }
  return b_.select(cond, x, y);
}

ExprId IdiomLifter::ex2(ExprId t, symbolic::FloatMods m) {
  auto& s = b_.store();
  const Node n = s.node(t);
  // Part of the accurate tanhf sequence: ex2(|x| * 2 log2 e) stays ex2 until the final select
  // lifts the whole sequence (2^t over the reals either way).
  if (n.op == Op::Mul && s.op(n.a) == Op::Abs && is_const(n.b, kTwoLog2e))
    return b_.unary(Op::Ex2, t, m);
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
    return b_.unary(Op::Ex2, t, m);
  }
  // Only f32 (or unformatted) ex2 is exp2f: an f16 or bf16 ex2 keeps its node, whose format
  // says where it overflows (ex2.approx.f16 of 20 is +inf; float_fold.hpp, expr_store.cpp).
  if (m.format != 0 && m.format != symbolic::kFormatF32)
    return b_.unary(Op::Ex2, t, m);
  ++counts_["exp2f"];
  return b_.unary(Op::Exp, b_.mul(t, s.intern(Node{Op::Ln2})), kLifted);
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

ExprId IdiomLifter::mul(ExprId a, ExprId b, symbolic::FloatMods m) {
  auto& s = b_.store();
  if (s.op(a) == Op::Lg2 && is_const(b, kLn2))
    return log_of("__logf", s.node(a).a);
  if (s.op(b) == Op::Lg2 && is_const(a, kLn2))
    return log_of("__logf", s.node(b).a);
  if (ExprId x = accurate_expf_argument(a, b))
    return lifted("expf", x);
  if (ExprId x = accurate_expf_argument(b, a))
    return lifted("expf", x);
  return b_.mul(a, b, m);
}

ExprId IdiomLifter::fma(ExprId a, ExprId b, ExprId c, symbolic::FloatMods m) {
  auto& s = b_.store();
  // The accurate-expf pair has an ex2 on one side; most fmas (reductions) have none. Checked
  // here as well as in accurate_expf_argument: skipping its two calls saves ~5% of a GEMM run.
  if (s.op(a) != Op::Ex2 && s.op(b) != Op::Ex2)
    return b_.fma(a, b, c, m);
  if (ExprId x = accurate_expf_argument(a, b))
    return b_.add(lifted("expf", x), c, m);
  if (ExprId x = accurate_expf_argument(b, a))
    return b_.add(lifted("expf", x), c, m);
  return b_.fma(a, b, c, m);
}

} // namespace volta::exec
