// The symbolic values of the engine: nodes of a hash-consed expression DAG over input elements,
// symbolic parameters and exact rational constants, shared by every thread, every element and
// both kernels of a pair. Integers, addresses and predicates are concrete and never become nodes
// (see engine/exec/value.hpp); only data does.
#pragma once

#include <cstdint>

namespace volta::symbolic {

// Index of a node in an ExprStore. 0 is never a node: registers use it for "concrete bits".
using ExprId = uint32_t;
inline constexpr ExprId kNoExpr = 0;

enum class Op : uint8_t {
  // ---- leaves
  Const,   // a: index in the store's rational table
  Input,   // a: array id, b: element index (the real-valued symbol `name[b]`)
  Param,   // a: symbolic parameter id (`sym:alpha`)
  Undef,   // an uninitialized value; a: PTX line of the read that produced it
  PosInf,  // +infinity (CUDA's INFINITY)
  NegInf,  // -infinity (running maxima start here)
  RawBits, // concrete bits whose meaning as a number is not known: a/b low/high word, aux width
  Ln2,     // the real number ln 2 (exp2f(x) is lifted to exp(x * ln2)); an atom for the prover
  // ---- arithmetic over the reals (binary unless noted)
  Add,
  Sub,
  Mul,
  Div,
  Fma, // a*b + c (ternary)
  Neg,
  Abs,
  Min,
  Max,
  Rcp,
  Sqrt,
  Rsqrt,
  Exp, // natural exponential (lifted idioms and __symexpf)
  Ex2,
  Lg2,
  Sin,
  Cos,
  Tanh,
  // ---- predicates and selects over symbolic values
  Cmp, // aux: CmpKind; a, b
  And,
  Or,
  Xor,
  Not,
  Select, // a ? b : c
  // ---- bit-level views of symbolic values
  Pack,         // two halves of aux bits each: a low, b high (four f16 in a b64: Pack(Pack, Pack))
  Extract,      // bits [aux, aux+b) of a
  BitOp,        // an opaque integer or bit operation on symbolic bits: aux BitOpKind, a, b, c
  AtomicResult, // the old value an atomic returned (schedule dependent); a: PTX line
  Count_
};

enum class CmpKind : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

// Bit-level operations the engine keeps opaque (they only make sense as parts of a recognized
// idiom such as nvcc's expf range reduction; anything else reaching an output is UNSUPPORTED).
enum class BitOpKind : uint8_t {
  Shl,
  Shr,
  Sra,
  And,
  Or,
  Xor,
  Not,
  IntAdd,
  IntSub,
  IntMul,
  CvtInt,
  FloatToInt,
  IntToFloat,
  SatF,   // cvt.sat / .sat on a float: clamp to [0, 1] (kept as an op for idiom matching)
  RoundF, // a float op with a directed rounding (.rm/.rp/.rz) that the idiom relies on
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
  // Not a taint of the value: the node, or one below it, is a transient link of a reduction
  // chain and was appended without a hash-cons lookup (ExprStore::append). Such a node cannot
  // be equal to an interned one, so nodes above it skip the lookup too.
  kTransient = 0x8000,
};
inline constexpr uint16_t kValueTaints = kTaintUndef | kTaintAtomicResult | kTaintOpaque;

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

inline constexpr int arity(Op op) {
  switch (op) {
  case Op::Const:
  case Op::Input:
  case Op::Param:
  case Op::Undef:
  case Op::PosInf:
  case Op::NegInf:
  case Op::RawBits:
  case Op::AtomicResult:
  case Op::Ln2:
    return 0;
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
  case Op::Not:
  case Op::Extract:
    return 1;
  case Op::Fma:
  case Op::Select:
  case Op::BitOp:
    return 3;
  default:
    return 2;
  }
}

inline constexpr bool is_leaf(Op op) {
  return arity(op) == 0;
}

// The child slots of a node that hold node ids (Extract's b is a width, BitOp's may be 0).
inline constexpr int child_count(Op op) {
  return op == Op::Pack ? 2 : arity(op);
}

} // namespace volta::symbolic
