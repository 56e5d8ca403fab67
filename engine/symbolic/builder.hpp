// Builds expression nodes with the only simplifications that are identities of the device's
// arithmetic and cost nothing: folding of constants as the device computes them
// (engine/symbolic/float_fold.hpp: exact results, signed zeros, overflow), max/min with -inf/+inf
// of a value that is not a NaN, and exp of -inf. Everything else is left to the prover, so that
// printed expressions stay close to what the kernel computed. Every float operation carries its
// value-changing modifiers (FloatMods) in its node.
#pragma once

#include <functional>
#include <vector>

#include "engine/symbolic/expr_store.hpp"
#include "engine/symbolic/int_semantics.hpp"

namespace volta::symbolic {

// The type class of node `id` and, for integers and bits, its width (0 when unknown).
ValueKind kind_of(const ExprStore& store, ExprId id, uint32_t* width = nullptr);
// Calls `visit` on each leaf of the select tree at `id` (itself when it is no select), the
// arms in order, each shared leaf once, until `visit` returns false; false then, else true.
bool every_select_leaf(const ExprStore& store, ExprId id, const std::function<bool(ExprId)>& visit);

class Builder {
public:
  explicit Builder(ExprStore& store) : s_(store) {}

  // Float operations; `m` is the instruction's modifiers (none for nodes the prover builds).
  ExprId add(ExprId a, ExprId b, FloatMods m = {});
  ExprId sub(ExprId a, ExprId b, FloatMods m = {});
  ExprId mul(ExprId a, ExprId b, FloatMods m = {});
  ExprId div(ExprId a, ExprId b, FloatMods m = {});
  ExprId fma(ExprId a, ExprId b, ExprId c, FloatMods m = {});
  ExprId neg(ExprId a, FloatMods m = {});
  ExprId abs(ExprId a, FloatMods m = {});
  ExprId min(ExprId a, ExprId b, FloatMods m = {});
  ExprId max(ExprId a, ExprId b, FloatMods m = {});
  ExprId unary(Op op, ExprId a, FloatMods m = {}); // Rcp Sqrt Rsqrt Exp Ex2 Lg2 Sin Cos Tanh
  // A float rounded to the narrower format m.format (cvt.rn.f16.f32, cvt.rz.f32.f64, ...): the
  // identity over the reals, a node of its own for the bits.
  ExprId narrow(ExprId a, FloatMods m);
  // A float comparison; `unordered` (setp.equ, .neu, ...) is true where an operand is a NaN, the
  // ordered one false (aux bit 3).
  ExprId cmp(CmpKind k, ExprId a, ExprId b, bool unordered = false);
  ExprId select(ExprId cond, ExprId if_true, ExprId if_false, uint8_t aux = 0);
  ExprId boolean(Op op, ExprId a, ExprId b); // And Or Xor
  ExprId bool_not(ExprId a);
  ExprId pack(ExprId low, ExprId high, int half_bits);
  ExprId extract(ExprId value, int bit_offset, int width);
  // ---- integer data: bit-vectors of width 8 << wc (docs/semantics.md). Operands are integer
  // typed; constants are Const nodes holding the unsigned value modulo 2^width, folded here.
  ExprId int_const(uint64_t bits, uint8_t wc);
  ExprId iadd(ExprId a, ExprId b, uint8_t wc);
  ExprId isub(ExprId a, ExprId b, uint8_t wc);
  ExprId imul(ExprId a, ExprId b, uint8_t wc);
  ExprId ineg(ExprId a, uint8_t wc);
  ExprId icmp(CmpKind k, IntType type, ExprId a, ExprId b);
  // Any other integer operation; `operand_width` matters for Ext only.
  ExprId intop(BitOpKind k, IntType type, ExprId a, ExprId b = kNoExpr, ExprId c = kNoExpr,
               ExprId d = kNoExpr, uint32_t operand_width = 0);
  // ---- conversions between types
  // cvt.rnd.f.s/u: the integer rounded to the float format (exact up to 2^precision).
  ExprId int_to_real(ExprId a, IntType source, uint8_t format, RoundKind rounding);
  // `flush`: .ftz on the f32 source (kept where it changes the value: flush_changes_rounding).
  ExprId real_to_int(ExprId a, RoundKind rounding, IntType destination, bool flush = false);
  ExprId round_real(ExprId a, RoundKind rounding, bool flush = false);
  // Bit reinterpretation: exact only for constants; otherwise opaque, and the two cancel.
  ExprId float_bits(ExprId real, uint8_t wc);
  ExprId bits_float(ExprId bits, uint8_t wc);
  // The constant's value as an integer of width 8 << wc (nullopt for a non-integral constant).
  std::optional<uint64_t> int_value(ExprId id, uint8_t wc) const;

  // clamp to [0, 1] (PTX .sat on floats; a NaN becomes +0, as fmaxf(NaN, 0) does)
  ExprId saturate(ExprId a, FloatMods m = {});
  // max(a, 0) (PTX .relu; a NaN stays a NaN, unlike fmaxf)
  ExprId relu(ExprId a, FloatMods m = {});

  ExprStore& store() { return s_; }
  // Where chain links are appended (the engine points it at the current GPU thread's stream).
  void set_stream(ExprStore::Stream* stream) { stream_ = stream; }
  // Where the partial operations this builder creates are logged (division, rcp, sqrt, rsqrt,
  // lg2, integer division and remainder): the engine maps each to its PTX line, the prover
  // turns each into a domain condition (engine/prove/domain_conditions.hpp).
  void set_partial_log(std::vector<ExprId>* log) { partial_log_ = log; }

private:
  bool is_const(ExprId id) const { return s_.op(id) == Op::Const; }
  const Rational& value(ExprId id) const { return s_.rational(id); }
  ExprId chain(Op op, ExprId a, ExprId b, ExprId c, bool link, FloatMods m);
  bool same_operands_fold(ExprId a, FloatMods m) const; // min(a, a) / max(a, a) is a
  // A float operation's node, with its partial log entry when an operand may be infinite (its
  // domain condition, inf - inf or 0 * inf, needs the operation's PTX line).
  ExprId real_op(Op op, ExprId a, ExprId b, ExprId c, FloatMods m);
  // A bit observation (FloatBits, RealToInt) of a lifted idiom: a node no other is equal to.
  ExprId unique(Node n);
  ExprId make(Op op, ExprId a, ExprId b = kNoExpr, ExprId c = kNoExpr, uint8_t aux = 0) {
    return s_.intern(Node{op, aux, 0, a, b, c});
  }
  ExprId logged(ExprId partial) {
    if (partial_log_ != nullptr)
      partial_log_->push_back(partial);
    return partial;
  }
  ExprStore& s_;
  ExprStore::Stream* stream_ = nullptr;
  std::vector<ExprId>* partial_log_ = nullptr;
};

} // namespace volta::symbolic
