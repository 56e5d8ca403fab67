#include "engine/symbolic/sign_analysis.hpp"

#include <array>
#include <vector>

#include "engine/symbolic/post_order.hpp"

namespace volta::symbolic {

namespace {

// The five sign atoms in value order: -inf < negative < 0 < positive < +inf. An atom's index i
// is the bit 1 << kBit[i] of a SignSet.
enum Atom : uint8_t { NI, N, Z, P, PI };
constexpr std::array<SignSet, 5> kBit = {kSignNegInf, kSignNeg, kSignZero, kSignPos, kSignPosInf};
constexpr SignSet kUndefined = 0; // a combination that is undefined over the reals (inf - inf)

// Applies `f` (atom, atom) -> SignSet to every pair of atoms of two sets.
template <class F>
SignSet pairwise(SignSet a, SignSet b, F f) {
  SignSet out = 0;
  for (uint8_t i = 0; i < 5; ++i) {
    if (!(a & kBit[i]))
      continue;
    for (uint8_t j = 0; j < 5; ++j) {
      if (b & kBit[j])
        out |= f(static_cast<Atom>(i), static_cast<Atom>(j));
    }
  }
  return out;
}

template <class F>
SignSet each(SignSet a, F f) {
  SignSet out = 0;
  for (uint8_t i = 0; i < 5; ++i) {
    if (a & kBit[i])
      out |= f(static_cast<Atom>(i));
  }
  return out;
}

SignSet add_atoms(Atom x, Atom y) {
  if (x > y)
    std::swap(x, y);
  if (x == NI)
    return y == PI ? kUndefined : kSignNegInf; // inf - inf is undefined
  if (y == PI)
    return kSignPosInf;
  if (x == Z)
    return kBit[y];
  if (x == N)
    return y == P ? kSignFinite : kSignNeg;
  return kSignPos; // P + P
}

SignSet mul_atoms(Atom x, Atom y) {
  const bool inf = x == NI || x == PI || y == NI || y == PI;
  if (x == Z || y == Z)
    return inf ? kUndefined : kSignZero; // 0 * inf is undefined
  const bool negative = (x == NI || x == N) != (y == NI || y == N);
  if (inf)
    return negative ? kSignNegInf : kSignPosInf;
  return negative ? kSignNeg : kSignPos;
}

SignSet neg_atom(Atom x) {
  return kBit[4 - x];
}

SignSet inverse_atom(Atom x) {
  switch (x) {
  case Z:
    return kUndefined; // division by zero: a domain condition of its own
  case NI:
  case PI:
    return kSignZero;
  default:
    return kBit[x];
  }
}

SignSet exp_atom(Atom x) {
  return x == NI ? kSignZero : x == PI ? kSignPosInf : kSignPos;
}

SignSet square_atom(Atom x) {
  return x == Z ? kSignZero : (x == NI || x == PI) ? kSignPosInf : kSignPos;
}

// The possible order relations between values of two atoms: bit 1 less, 2 equal, 4 greater.
uint8_t relation(Atom x, Atom y) {
  if (x != y)
    return x < y ? 1 : 4;
  return (x == N || x == P) ? 7 : 2; // two negatives (positives) can be in any order
}

} // namespace

SignSet SignAnalysis::signs(ExprId root) {
  if (const uint32_t* known = memo_.find(root))
    return static_cast<SignSet>(*known);
  // e^x of a finite x is positive, unless x is a constant so large that e^x overflows (the
  // node's own infinity, see compute): no need to look at x.
  const auto positive_exp = [&](ExprId id, const Node& n) {
    return (n.op == Op::Exp || n.op == Op::Ex2) &&
           !(store_.taint(id) & (kTaintInfinity | kTaintNaN));
  };
  post_order(
      store_, root, [&](ExprId id) { return memo_.find(id) != nullptr; },
      [&](ExprId id, const Node& n) { return n.op != Op::BitOp && !positive_exp(id, n); },
      [&](ExprId id) {
        memo_.insert(id, positive_exp(id, store_.node(id)) ? kSignPos : compute(id));
      });
  return static_cast<SignSet>(*memo_.find(root));
}

SignSet SignAnalysis::compute(ExprId id) {
  SignSet numeric = compute_numeric(id);
  const Node& n = store_.node(id);
  // A float operation on constants alone whose value may exceed its format's range (ex2 of 200,
  // float_fold.hpp): an infinity of its own, of the signs its value may have.
  if (has_float_mods(n.op) && (store_.taint(id) & kTaintInfinity)) {
    uint16_t below = 0;
    const ExprId kids[3] = {n.a, n.b, n.c};
    for (int i = 0; i < child_count(n.op); ++i)
      below |= kids[i] != kNoExpr ? store_.taint(kids[i]) : 0;
    if (!(below & kTaintInfinity))
      numeric |= ((numeric & (kSignPos | kSignPosInf)) ? kSignPosInf : 0) |
                 ((numeric & (kSignNeg | kSignNegInf)) ? kSignNegInf : 0);
  }
  if (!(store_.taint(id) & kTaintNaN))
    return numeric; // no NaN below: a defined value is a number
  // A NaN operand: arithmetic gives a NaN; min/max give the other operand (a NaN only when both
  // are, or with .NaN); a select one of its arms; a predicate is true or false.
  auto s = [&](ExprId k) {
    const uint32_t* known = k == kNoExpr ? nullptr : memo_.find(k);
    return known != nullptr ? static_cast<SignSet>(*known) : kSignAnyOrNaN;
  };
  switch (n.op) {
  case Op::BitsFloat:
    return numeric | kSignNaN;
  case Op::Min:
  case Op::Max: {
    const SignSet a = s(n.a), b = s(n.b);
    SignSet out = numeric;
    if (FloatMods::of(n.aux).nan_propagating)
      return out | ((a | b) & kSignNaN);
    if (a & kSignNaN)
      out |= b;
    if (b & kSignNaN)
      out |= a;
    return out;
  }
  case Op::Select:
    return numeric | ((s(n.b) | s(n.c)) & kSignNaN);
  case Op::Cmp:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
  case Op::ICmp:
    return numeric;
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
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div:
  case Op::Fma:
  case Op::Neg:
  case Op::Abs:
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
  // bit-level views of symbolic values
  case Op::Pack:
  case Op::Extract:
  case Op::BitOp:
  case Op::AtomicResult:
  // integer data
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg:
  // conversions between the types, each its own operator
  case Op::IntToReal:
  case Op::RealToInt:
  case Op::RoundReal:
  case Op::FloatBits:
  case Op::Fresh:
    break;
  }
  const ExprId kids[3] = {n.a, n.b, n.c};
  for (int i = 0; i < child_count(n.op); ++i) {
    if (kids[i] != kNoExpr && (s(kids[i]) & kSignNaN))
      return numeric | kSignNaN;
  }
  return numeric;
}

SignSet SignAnalysis::compute_numeric(ExprId id) {
  const Node& n = store_.node(id);
  // Children come first in the post-order walk; one it did not enter (below a BitOp) may have
  // any sign. A NaN operand is dealt with by compute(): here only its numbers count.
  auto s = [&](ExprId k) {
    const uint32_t* known = memo_.find(k);
    return static_cast<SignSet>((known != nullptr ? static_cast<SignSet>(*known) : kSignAny) &
                                kSignAny);
  };
  switch (n.op) {
  case Op::Const: {
    const int sg = sgn(store_.rational(id));
    return sg < 0 ? kSignNeg : sg == 0 ? kSignZero : kSignPos;
  }
  case Op::PosInf:
    return kSignPosInf;
  case Op::NegInf:
    return kSignNegInf;
  case Op::Ln2:
    return kSignPos;
  case Op::Input: // inputs and parameters are real numbers: finite
  case Op::Param:
    return kSignFinite;
  case Op::Add:
    return pairwise(s(n.a), s(n.b), add_atoms);
  case Op::Sub:
    return pairwise(s(n.a), each(s(n.b), neg_atom), add_atoms);
  case Op::Neg:
    return each(s(n.a), neg_atom);
  case Op::Mul:
    if (n.a == n.b)
      return each(s(n.a), square_atom);
    return pairwise(s(n.a), s(n.b), mul_atoms);
  case Op::Fma: {
    const SignSet product =
        n.a == n.b ? each(s(n.a), square_atom) : pairwise(s(n.a), s(n.b), mul_atoms);
    return pairwise(product, s(n.c), add_atoms);
  }
  case Op::Div:
    return pairwise(s(n.a), each(s(n.b), inverse_atom), mul_atoms);
  case Op::Rcp:
    return each(s(n.a), inverse_atom);
  case Op::Exp:
  case Op::Ex2:
    return each(s(n.a), exp_atom);
  case Op::Abs: // |x| has the signs of x * x
    return each(s(n.a), square_atom);
  case Op::Sqrt:
    return s(n.a) & (kSignZero | kSignPos | kSignPosInf); // negative: undefined
  case Op::Rsqrt:
    return each(s(n.a) & (kSignPos | kSignPosInf),
                [](Atom x) { return x == PI ? kSignZero : kSignPos; });
  case Op::Lg2:
    return each(s(n.a), [](Atom x) -> SignSet {
      return x == P ? kSignFinite : x == PI ? kSignPosInf : kUndefined;
    });
  case Op::Tanh:
    return each(s(n.a), [](Atom x) -> SignSet {
      return x == NI ? kSignNeg : x == PI ? kSignPos : kBit[x];
    });
  case Op::Sin:
  case Op::Cos:
    return (s(n.a) & kSignFinite) ? kSignFinite : kUndefined;
  case Op::Narrow: // the same real (the rounding is idealized; a constant is folded exactly)
    return s(n.a);
  case Op::Max:
    return pairwise(s(n.a), s(n.b), [](Atom x, Atom y) { return kBit[std::max(x, y)]; });
  case Op::Min:
    return pairwise(s(n.a), s(n.b), [](Atom x, Atom y) { return kBit[std::min(x, y)]; });
  case Op::Select:
    if (auto c = decide(n.a))
      return *c ? s(n.b) : s(n.c);
    return s(n.b) | s(n.c);
  case Op::Cmp:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
    if (auto c = decide(id))
      return *c ? kSignPos : kSignZero;
    return kSignZero | kSignPos;
  case Op::IntToReal: {
    SignSet out = IntType::from_code(n.aux & 7).is_signed ? kSignFinite : kSignZero | kSignPos;
    // An integer converted to f16 may overflow to an infinity (cvt.rn.f16.u32 of 70000).
    if (store_.taint(id) & kTaintInfinity)
      out |= (out & kSignNeg ? kSignNegInf : 0) | kSignPosInf;
    return out;
  }
  case Op::RoundReal:
    return each(s(n.a), [](Atom x) -> SignSet {
      return x == N ? kSignNeg | kSignZero : x == P ? kSignZero | kSignPos : kBit[x];
    });
    // leaves
  case Op::Undef:
  case Op::RawBits:
  // bit-level views of symbolic values
  case Op::Pack:
  case Op::Extract:
  case Op::BitOp:
  case Op::AtomicResult:
  // integer data
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg:
  case Op::ICmp:
  // conversions between the types, each its own operator
  case Op::RealToInt:
  case Op::FloatBits:
  case Op::BitsFloat:
  case Op::Fresh:
    return kSignAny;
  }
  unknown_op(n.op); // a value outside ops.def
}

std::optional<bool> SignAnalysis::decide_cmp(const Node& n) {
  const auto kind = static_cast<CmpKind>(n.aux & 7);
  uint8_t rel = 0; // possible relations of a to b: 1 less, 2 equal, 4 greater
  // A NaN operand makes every ordered comparison false and every unordered one true: nothing
  // is decided where an operand may be one (the float view of integer bits).
  if ((signs(n.a) | signs(n.b)) & kSignNaN)
    return std::nullopt;
  if (n.a == n.b) {
    rel = 2; // a defined value equals itself (a NaN test on a defined value is false)
  } else {
    // a running maximum is >= each of its operands (and a minimum <=)
    auto bound_of = [&](ExprId outer, ExprId inner, Op op) {
      for (int depth = 0; depth < 64 && store_.op(outer) == op; ++depth) {
        const Node& m = store_.node(outer);
        if (m.a == inner || m.b == inner)
          return true;
        outer = store_.op(m.a) == op ? m.a : m.b;
      }
      return false;
    };
    if (bound_of(n.b, n.a, Op::Max) || bound_of(n.a, n.b, Op::Min))
      rel = 1 | 2; // a <= b
    else if (bound_of(n.a, n.b, Op::Max) || bound_of(n.b, n.a, Op::Min))
      rel = 2 | 4; // a >= b
    else {
      const SignSet sa = signs(n.a), sb = signs(n.b);
      for (uint8_t i = 0; i < 5; ++i) {
        if (!(sa & kBit[i]))
          continue;
        for (uint8_t j = 0; j < 5; ++j) {
          if (sb & kBit[j])
            rel |= relation(static_cast<Atom>(i), static_cast<Atom>(j));
        }
      }
    }
  }
  if (rel == 0)
    return std::nullopt; // no defined value at all
  uint8_t holds = 0;     // the relations under which the comparison is true
  switch (kind) {
  case CmpKind::Eq:
    holds = 2;
    break;
  case CmpKind::Ne:
    holds = 1 | 4;
    break;
  case CmpKind::Lt:
    holds = 1;
    break;
  case CmpKind::Le:
    holds = 1 | 2;
    break;
  case CmpKind::Gt:
    holds = 4;
    break;
  case CmpKind::Ge:
    holds = 2 | 4;
    break;
  }
  if ((rel & ~holds) == 0)
    return true;
  if ((rel & holds) == 0)
    return false;
  return std::nullopt;
}

std::optional<bool> SignAnalysis::decide(ExprId pred) {
  const Node& n = store_.node(pred);
  switch (n.op) {
  case Op::Cmp:
    return decide_cmp(n);
  case Op::Not:
    if (auto x = decide(n.a))
      return !*x;
    return std::nullopt;
  case Op::And:
  case Op::Or: {
    const bool is_and = n.op == Op::And;
    const auto x = decide(n.a), y = decide(n.b);
    // false absorbs an and, true an or
    if ((x && *x != is_and) || (y && *y != is_and))
      return !is_and;
    if (x && y)
      return is_and;
    return std::nullopt;
  }
  case Op::Xor: {
    const auto x = decide(n.a), y = decide(n.b);
    if (x && y)
      return *x != *y;
    return std::nullopt;
  }
  case Op::Const:
    return sgn(store_.rational(pred)) != 0;
    // leaves
  case Op::Input:
  case Op::Param:
  case Op::Undef:
  case Op::PosInf:
  case Op::NegInf:
  case Op::RawBits:
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
  // bit-level views of symbolic values
  case Op::Pack:
  case Op::Extract:
  case Op::BitOp:
  case Op::AtomicResult:
  // integer data
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg:
  case Op::ICmp:
  // conversions between the types, each its own operator
  case Op::IntToReal:
  case Op::RealToInt:
  case Op::RoundReal:
  case Op::FloatBits:
  case Op::BitsFloat:
  case Op::Fresh:
    return std::nullopt;
  }
  unknown_op(n.op); // a value outside ops.def
}

} // namespace volta::symbolic
