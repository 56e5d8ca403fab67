// Builds expression nodes with the only simplifications that are identities over the extended
// reals and cost nothing: folding of finite constants (exactly), max/min with -inf/+inf, and
// exp of -inf. Everything else is left to the prover, so that printed expressions stay close to
// what the kernel computed.
#pragma once

#include "engine/symbolic/expr_store.hpp"

namespace volta::symbolic {

class Builder {
public:
  explicit Builder(ExprStore& store) : s_(store) {}

  ExprId add(ExprId a, ExprId b);
  ExprId sub(ExprId a, ExprId b);
  ExprId mul(ExprId a, ExprId b);
  ExprId div(ExprId a, ExprId b);
  ExprId fma(ExprId a, ExprId b, ExprId c);
  ExprId neg(ExprId a);
  ExprId abs(ExprId a);
  ExprId min(ExprId a, ExprId b);
  ExprId max(ExprId a, ExprId b);
  ExprId unary(Op op, ExprId a); // Rcp Sqrt Rsqrt Exp Ex2 Lg2 Sin Cos Tanh
  ExprId cmp(CmpKind k, ExprId a, ExprId b);
  ExprId select(ExprId cond, ExprId if_true, ExprId if_false);
  ExprId boolean(Op op, ExprId a, ExprId b); // And Or Xor
  ExprId bool_not(ExprId a);
  ExprId pack(ExprId low, ExprId high, int half_bits);
  ExprId extract(ExprId value, int bit_offset, int width);
  ExprId bitop(BitOpKind k, ExprId a, ExprId b = kNoExpr, ExprId c = kNoExpr, uint8_t extra = 0);
  // clamp to [0, 1] (PTX .sat on floats)
  ExprId saturate(ExprId a);
  // max(a, 0) (PTX .relu)
  ExprId relu(ExprId a);

  ExprStore& store() { return s_; }
  // Where chain links are appended (the engine points it at the current GPU thread's stream).
  void set_stream(ExprStore::Stream* stream) { stream_ = stream; }

private:
  bool is_const(ExprId id) const { return s_.op(id) == Op::Const; }
  const Rational& value(ExprId id) const { return s_.rational(id); }
  ExprId chain(Op op, ExprId a, ExprId b, ExprId c, bool link);
  ExprId make(Op op, ExprId a, ExprId b = kNoExpr, ExprId c = kNoExpr, uint8_t aux = 0) {
    return s_.intern(Node{op, aux, 0, a, b, c});
  }
  ExprStore& s_;
  ExprStore::Stream* stream_ = nullptr;
};

} // namespace volta::symbolic
