// The symbolic values of the engine: nodes of a hash-consed expression DAG over input elements,
// symbolic parameters and exact rational constants, shared by every thread, every element and
// both kernels of a pair. Addresses, loop counters and branch conditions are concrete and never
// become nodes; only data does (engine/exec/cta_runner.hpp, `Value`).
//
// Every node has a type (docs/semantics.md, "Typed values"): real (float data, read over the
// reals), bit-vector of width 8/16/32/64 (integer data, exact two's-complement), or predicate.
// The operator decides the type; constants take the type of their use. Bit reinterpretation
// between the two is never arithmetic: FloatBits / BitsFloat are opaque operators that only
// cancel each other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "support/invariant.hpp"

namespace volta::symbolic {

// Index of a node in an ExprStore. 0 is never a node: registers use it for "concrete bits".
using ExprId = uint32_t;
inline constexpr ExprId kNoExpr = 0;

// The operators, one row each in ops.def (what each holds in a, b, c and aux is commented there).
enum class Op : uint8_t {
#define OP(name, printed, children, sort, taint, domain, nan, by_aux, fmods, liftable, ml, number, \
           noun, symbol, z3, exact)                                                                \
  name,
#include "engine/symbolic/ops.def"
#undef OP
};
// How many operators there are (ops.def's rows): not an enumerator, so that a switch that lists
// every operator is exhaustive.
inline constexpr size_t kOpCount = 0
#define OP(...) +1
#include "engine/symbolic/ops.def"
#undef OP
    ;

enum class CmpKind : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
// not (a k b) as a comparison of a and b, where neither is a NaN: Lt becomes Ge, Eq Ne.
constexpr CmpKind negated(CmpKind k) {
  constexpr CmpKind kNot[] = {CmpKind::Ne, CmpKind::Eq, CmpKind::Ge,
                              CmpKind::Gt, CmpKind::Le, CmpKind::Lt};
  return kNot[static_cast<int>(k)];
}
// a k b as b k' a: Lt becomes Gt, Eq stays Eq.
constexpr CmpKind mirrored(CmpKind k) {
  constexpr CmpKind kMirror[] = {CmpKind::Eq, CmpKind::Ne, CmpKind::Gt,
                                 CmpKind::Ge, CmpKind::Lt, CmpKind::Le};
  return kMirror[static_cast<int>(k)];
}

// The type of integer data: a width code (0: 8, 1: 16, 2: 32, 3: 64 bits) and, where the
// operation depends on it (comparison, shift right, min/max, division, extension, conversion to
// a real), the signedness. Packed into 3 bits of a node's aux.
struct IntType {
  uint8_t width_code = 2;
  bool is_signed = false;
  constexpr uint32_t width() const { return 8u << width_code; }
  constexpr uint8_t code() const { return static_cast<uint8_t>(width_code | (is_signed ? 4 : 0)); }
  static constexpr IntType from_code(uint8_t c) {
    return IntType{static_cast<uint8_t>(c & 3), (c & 4) != 0};
  }
  static constexpr IntType of_width(uint32_t bits, bool sign = false) {
    return IntType{static_cast<uint8_t>(bits <= 8 ? 0 : bits <= 16 ? 1 : bits <= 32 ? 2 : 3), sign};
  }
};
constexpr uint8_t width_code(uint32_t bits) {
  return IntType::of_width(bits).width_code;
}

// Rounding of RealToInt / RoundReal (PTX .rni/.rn, .rzi/.rz, .rmi/.rm, .rpi/.rp).
enum class RoundKind : uint8_t { NearestEven, Zero, Down, Up };

// The aux of RealToInt (destination type code in bits 0-2, rounding in bits 3-4) and of
// RoundReal (rounding in bits 0-1), each with kRoundFlushes: `.ftz` on an f32 source rounded
// down or up (cvt.rmi.ftz, cvt.rpi.ftz), the only roundings to an integer whose value .ftz
// changes: floor(-2^-130) is -1, floor of the flushed -0 is 0; rni and rzi give a zero either way.
inline constexpr uint8_t kRoundFlushes = 0x40;
constexpr RoundKind real_to_int_rounding(uint8_t aux) {
  return static_cast<RoundKind>((aux >> 3) & 3);
}
constexpr RoundKind round_real_rounding(uint8_t aux) {
  return static_cast<RoundKind>(aux & 3);
}
constexpr bool rounding_flushes(uint8_t aux) {
  return (aux & kRoundFlushes) != 0;
}
// Whether .ftz changes a rounding to an integer of this kind (kRoundFlushes is kept only then).
constexpr bool flush_changes_rounding(RoundKind k) {
  return k == RoundKind::Down || k == RoundKind::Up;
}

// The type class of a node (docs/semantics.md): constants and undefined values take the type of
// their use; Fresh values and bit fields (Pack, Extract) are bits of a known or unknown width.
enum class ValueKind : uint8_t { Real, Int, Pred, Bits, Any };

// Float formats of FloatBits / BitsFloat (aux): width codes 1..3 for f16/f32/f64, and bf16.
inline constexpr uint8_t kFormatF16 = 1, kFormatF32 = 2, kFormatF64 = 3, kFormatBF16 = 4;

// The value-changing modifiers of a float operation, kept in the aux of every real operator
// (Add .. Narrow), so that two operations that round differently are never one node
// (docs/semantics.md, "Floats observed as bits"). The real-valued reasoning ignores them (over
// the reals every rounding is idealized); a value observed as bits is compared structurally,
// modifiers included.
enum class FloatMode : uint8_t {
  Unspecified, // built by the prover or the idiom lifter, not by a PTX instruction
  Default,     // no rounding modifier: .rn, but add/sub/mul may be contracted into an fma
  Rn,
  Rz,
  Rm,
  Rp,
  Approx,
  Full, // div.full
};
// The format of a float operation: the width codes of FloatBits/BitsFloat (1 f16, 2 f32, 3 f64,
// kFormatBF16), 0 when unspecified.
struct FloatMods {
  FloatMode mode = FloatMode::Unspecified;
  bool ftz = false;
  uint8_t format = 0;
  // min/max: NaN-propagating (.NaN, and .relu's max(x, 0), which keeps a NaN where fmaxf
  // gives 0); Narrow: .satfinite; Exp, Ex2, Lg2, Tanh, Select: lifted (kLiftedAux).
  bool nan_propagating = false;

  constexpr uint8_t aux() const {
    return static_cast<uint8_t>(static_cast<uint8_t>(mode) | (ftz ? 8 : 0) | ((format & 7) << 4) |
                                (nan_propagating ? 0x80 : 0));
  }
  static constexpr FloatMods of(uint8_t aux) {
    return FloatMods{static_cast<FloatMode>(aux & 7), (aux & 8) != 0,
                     static_cast<uint8_t>((aux >> 4) & 7), (aux & 0x80) != 0};
  }
  friend constexpr bool operator==(const FloatMods&, const FloatMods&) = default;
};

// Bit 7 of the aux of Exp, Ex2, Lg2, Tanh and Select (where FloatMods::nan_propagating has no
// meaning): the node is a lifted idiom, one node for instruction sequences that round
// differently (engine/exec/idioms.hpp). Its own taint is kTaintIdealized.
inline constexpr uint8_t kLiftedAux = 0x80;

// What a Fresh node stands for (for reports).
enum class FreshKind : uint8_t { AtomicOld, SpecialRegister };

// Integer operations on data other than the ring operators (IAdd, IMul, INeg): opaque to the
// canonical forms, each keyed by its kind, type and every operand (aux: kind | IntType code << 5).
// Operands that do not fit in a, b, c are chained with Tuple (c = Tuple(c, d)).
enum class BitOpKind : uint8_t {
  Shl,
  Shr, // logical or arithmetic by the type's signedness
  And,
  Or,
  Xor,
  Not,
  CNot,
  MulHi,
  Mul24Lo,
  Mul24Hi,
  Div,
  Rem,
  Min,
  Max,
  Abs,
  Popc,
  Clz,
  Brev,
  Bfe,
  Bfi,
  Prmt,
  Lop3,
  ShfL,
  ShfR,
  Sad,
  Ext,    // sign (signed source) or zero extension, or truncation, to the node's width
  SatAdd, // add.sat.s32
  SatSub, // sub.sat.s32
  Tuple,  // not an operation: extra operands of the others
  Bfind,
  ExtSat, // cvt.sat between integer types: clamp to the destination's range
  Other
};

const char* op_name(Op op);
const char* cmp_name(CmpKind k);
const char* bitop_name(BitOpKind k);

// What a value carries along from its leaves: computed when a node is created (the taint of
// its children plus its own), so that checking an output is O(1).
enum Taint : uint16_t {
  kTaintUndef = 1,        // an uninitialized value flows into it
  kTaintAtomicResult = 2, // the (schedule-dependent) result of an atomic flows into it
  kTaintOpaque = 4,       // an unresolved bit-level operation (BitOp, Extract, Pack, RawBits)
  kTaintSchedule = 8,     // a hardware/schedule-dependent special register (%smid, %warpid...)
  // Not a taint of the value either: a partial operation (division, sqrt, rsqrt, lg2, an
  // integer operation) is the node or below it, so the domain check must walk it.
  kTaintPartial = 16,
  // An infinity is the node or below it; without one, a defined value is finite (the sign
  // analysis needs no walk below exp(x) to know it is positive).
  kTaintInfinity = 32,
  // The node may be NaN although no operation made a NaN out of numbers: a float view of integer
  // bits (BitsFloat), which holds any IEEE pattern. Real-valued identities do not hold for it
  // (NaN * 0 is not 0, fmaxf(NaN, 0) is 0): such values are decided only as the same term.
  kTaintNaN = 64,
  // The node or one below it is a lifted idiom (docs/semantics.md, "Idealizations"): one node for
  // several instruction sequences that round differently, so its bits are not known. A bit
  // observation of it (FloatBits, RealToInt) is never the same term as another.
  kTaintIdealized = 128,
  // Not a taint of the value: an input, a parameter or another value not known to the model
  // (undefined, fresh, raw bits, an atomic's result) is the node or below it. A float operation
  // without it is computed from constants alone, and is checked for overflow when it is built
  // (float_fold.hpp, constant_may_overflow): its kTaintInfinity may then be its own.
  kTaintData = 256,
  // Not a taint of the value: the node, or one below it, is a transient link of a reduction
  // chain and was appended without a hash-cons lookup (ExprStore::append). Such a node cannot
  // be equal to an interned one, so nodes above it skip the lookup too.
  kTransient = 0x8000,
};
inline constexpr uint16_t kValueTaints =
    kTaintUndef | kTaintAtomicResult | kTaintOpaque | kTaintSchedule;

struct Node {
  Op op = Op::Const;
  uint8_t aux = 0;
  uint16_t taint = 0; // set by ExprStore::intern
  uint32_t a = 0;
  uint32_t b = 0;
  uint32_t c = 0;

  friend bool operator==(const Node&, const Node&) = default;
};
static_assert(sizeof(Node) == 16);

// The sort an operator's result has for sure (ops.def); Neutral for leaves that take the type
// of their use, selects and bit-level views.
enum class OpSort : uint8_t { Neutral, Real, Int, Pred };
// Whether a float instruction reads a register holding the node as the number it is (ops.def's
// `number` column): Never, Always, or only when the value came out of float data (FromFloat).
enum class OpNumber : uint8_t { Never = 0, Always = 1, FromFloat = 2 };
// The condition an operation puts on an operand (ops.def's `domain` column; docs/semantics.md,
// "Domains"): which operand, and what it must be. IntegerDivision: BitOp's div and rem kinds
// (their divisor b != 0), no condition for its other kinds.
enum class OpDomain : uint8_t {
  None,
  DivisorNonZero,
  NonZero,
  NonNegative,
  Positive,
  IntegerDivision
};
// How an operation makes a NaN out of numbers when an operand is infinite (ops.def's `nan`
// column; IEEE 754 §7.2).
enum class OpNan : uint8_t { None, Sum, Difference, Product, FusedMultiplyAdd, Quotient };

// Whether the device computes an operation's exact value from exact operands (ops.def's `exact`
// column): Never (it may round, or its value is not known), Always (bar .ftz), ByAux (the node's
// aux decides: IntToReal).
enum class OpExactness : uint8_t { Never = 0, Always = 1, ByAux = 2 };

// One row of ops.def.
struct OpInfo {
  const char* printed; // op_name
  uint8_t children;    // the slots a, b, c (in order) that hold node ids
  OpSort sort;         // the sort of the result
  uint16_t own_taint;  // its own taint, kTaintPartial included
  bool taint_by_aux;   // the taint depends on aux or children too (ExprStore::with_flags)
  bool float_mods;     // aux holds FloatMods
  bool liftable;       // aux bit 7 (kLiftedAux) may make it a lifted idiom
  OpNumber number;     // read as a number by a float instruction (CtaRunner::number_at)
  const char* ml;      // its word in the rules' ML language, "" when none
  OpDomain domain;     // the condition it puts on an operand
  OpNan nan;           // how it makes a NaN out of an infinite operand
  const char* noun;    // what reports call it
  const char* symbol;  // its s-expression symbol, "" for `printed`
  bool z3;             // the Z3 translation takes it
  OpExactness exact;   // whether the device computes its exact value (ops.def's `exact`)
};

inline constexpr OpInfo kOps[kOpCount] = {
#define OP(name, printed, children, sort, taint, domain, nan, by_aux, fmods, liftable, ml, number, \
           noun, symbol, z3, exact)                                                                \
  OpInfo{                                                                                          \
      printed,                                                                                     \
      children,                                                                                    \
      OpSort::sort,                                                                                \
      static_cast<uint16_t>((taint) | (OpDomain::domain != OpDomain::None ? kTaintPartial : 0)),   \
      (by_aux) != 0,                                                                               \
      (fmods) != 0,                                                                                \
      (liftable) != 0,                                                                             \
      static_cast<OpNumber>(number),                                                               \
      ml,                                                                                          \
      OpDomain::domain,                                                                            \
      OpNan::nan,                                                                                  \
      noun,                                                                                        \
      symbol,                                                                                      \
      (z3) != 0,                                                                                   \
      static_cast<OpExactness>(exact)},
#include "engine/symbolic/ops.def"
#undef OP
};

inline constexpr const OpInfo& op_info(Op op) {
  return kOps[static_cast<size_t>(op)];
}

// How many of the slots a, b, c hold node ids (Extract's b is a width, BitOp's c may be 0).
inline constexpr int arity(Op op) {
  return op_info(op).children;
}
inline constexpr int child_count(Op op) {
  return op_info(op).children;
}
inline constexpr bool is_leaf(Op op) {
  return arity(op) == 0;
}
inline constexpr OpSort sort_of(Op op) {
  return op_info(op).sort;
}
// A float operation (Add .. Narrow): its aux holds FloatMods.
inline constexpr bool has_float_mods(Op op) {
  return op_info(op).float_mods;
}
// Exp, Ex2, Lg2, Tanh, Select: aux bit 7 (kLiftedAux) may make the node a lifted idiom.
inline constexpr bool liftable(Op op) {
  return op_info(op).liftable;
}
// A partial operation: it has a domain condition (docs/semantics.md, "Domains").
inline constexpr bool is_partial(Op op) {
  return (op_info(op).own_taint & kTaintPartial) != 0;
}
// The condition the operator puts on an operand (None for a total one).
inline constexpr OpDomain domain_of(Op op) {
  return op_info(op).domain;
}
// How the operator makes a NaN out of an infinite operand (None when it never does).
inline constexpr OpNan nan_of(Op op) {
  return op_info(op).nan;
}
// Its symbol in s-expressions ("+" for add; op_name where ops.def gives none).
inline constexpr const char* symbol_of(Op op) {
  return op_info(op).symbol[0] != '\0' ? op_info(op).symbol : op_info(op).printed;
}
// Whether the Z3 translation takes the operator (engine/smt/translate.cpp).
inline constexpr bool z3_supported(Op op) {
  return op_info(op).z3;
}
// What reports call the operation ("division").
inline constexpr const char* noun_of(Op op) {
  return op_info(op).noun;
}
// The operator's word in the ML language of the rules (docs/rules.md), "" when it has none.
inline constexpr const char* ml_name(Op op) {
  return op_info(op).ml;
}

// After an exhaustive switch on Op (every switch on Op lists every operator; -Werror=switch):
// a value outside the enum is a corrupted node, never to be read as some operator.
[[noreturn]] inline void unknown_op(Op op) {
  char message[64];
  std::snprintf(message, sizeof message, "operator code %d is not in ops.def",
                static_cast<int>(op));
  VOLTA_UNREACHABLE(message);
}

} // namespace volta::symbolic
