// A sign analysis of real-valued DAG nodes (docs/semantics.md, "Domains"): for every node, the
// set of signs its value can have — negative, zero, positive, the two infinities, and NaN for the
// float view of integer bits — read over the extended reals on every input where the node is
// defined. Infinities come from constants, integers converted to f16, integer bits read as
// floats, and whatever is computed from them. exp(·) > 0, squares are >= 0, sums and
// products of known signs combine, max with a positive operand is positive, exp(-inf) = 0.
//
// It discharges domain conditions without a solver (a softmax denominator, a sum of
// exponentials, is > 0; layernorm's var + eps with var a mean of squares is > 0) and decides
// branch conditions over the reals (`sum == 0` on such a sum is false, `x > -inf` on a finite x
// is true). Every answer assumes that the node itself is defined; the partial operations below
// it are domain conditions of their own, collected separately (engine/prove/domain_conditions).
#pragma once

#include <cstdint>
#include <optional>

#include "engine/symbolic/expr_store.hpp"
#include "engine/symbolic/id_map.hpp"

namespace volta::symbolic {

// A set of possible signs: an or of these bits. kSignNaN is a value that is not a number although
// no operation made it one: the float view of integer bits (a NaN made by inf - inf or 0 * inf
// is a domain condition, not a value).
using SignSet = uint8_t;
inline constexpr SignSet kSignNeg = 1, kSignZero = 2, kSignPos = 4, kSignNegInf = 8,
                         kSignPosInf = 16, kSignNaN = 32;
inline constexpr SignSet kSignFinite = kSignNeg | kSignZero | kSignPos;
inline constexpr SignSet kSignAny = kSignFinite | kSignNegInf | kSignPosInf;
inline constexpr SignSet kSignAnyOrNaN = kSignAny | kSignNaN;

class SignAnalysis {
public:
  explicit SignAnalysis(const ExprStore& store) : store_(store) {}

  SignSet signs(ExprId id);
  bool positive(ExprId id) { return (signs(id) & ~kSignPos) == 0; }
  bool nonnegative(ExprId id) { return (signs(id) & ~(kSignPos | kSignZero)) == 0; }
  bool nonzero(ExprId id) { return (signs(id) & (kSignZero | kSignNaN)) == 0; }

  // The truth of a predicate node (Cmp, And, Or, Xor, Not) where the signs decide it, on
  // every input where its operands are defined; nullopt otherwise.
  std::optional<bool> decide(ExprId pred);

private:
  SignSet compute(ExprId id);
  SignSet compute_numeric(ExprId id); // the signs of the node's number values
  std::optional<bool> decide_cmp(const Node& n);
  const ExprStore& store_;
  IdMap memo_; // node -> its SignSet
};

} // namespace volta::symbolic
