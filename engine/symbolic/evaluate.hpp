// Evaluates expression DAGs at a point: exactly (rationals) where the operations allow, with
// outward-rounded long-double intervals where they do not (exp, sqrt, tanh ...). Used to find
// and confirm counterexamples: two values differ for sure when both are exact and unequal, or
// when their intervals are disjoint.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/symbolic/expr_store.hpp"

namespace volta::symbolic {

struct Interval {
  long double lo = 0;
  long double hi = 0;
};

struct EvalValue {
  enum class Kind : uint8_t { Exact, Approx, PosInf, NegInf, Unknown };
  Kind kind = Kind::Unknown;
  Rational exact;
  Interval approx;

  static EvalValue of(Rational q) { return EvalValue{Kind::Exact, std::move(q), {}}; }
  Interval interval() const;
  std::string to_string() const;
};

// Is a != b certainly (never a guess)?
bool certainly_different(const EvalValue& a, const EvalValue& b);

// Values of the leaves: input elements (array id, index) and symbolic parameters.
struct Assignment {
  std::unordered_map<uint64_t, Rational> values; // key: leaf_key()
  static uint64_t input_key(uint32_t array, uint32_t index) {
    return uint64_t{array} << 32 | index;
  }
  static uint64_t param_key(uint32_t symbol) { return (uint64_t{1} << 63) | symbol; }
  // The integer view of an input element at one width (FloatBits(Input) of width code wc):
  // an integer symbol of its own, valued by the unsigned integer modulo 2^width.
  static uint64_t int_input_key(uint32_t array, uint32_t index, uint8_t wc) {
    return input_key(array, index) | (uint64_t{wc + 1u} << 58);
  }
  // The key of a leaf returned by leaves_below.
  static uint64_t key_of(const ExprStore& store, ExprId leaf);
};

// Is `leaf` (from leaves_below) an integer symbol, and of which width?
std::optional<uint32_t> integer_leaf_width(const ExprStore& store, ExprId leaf);

class Evaluator {
public:
  Evaluator(const ExprStore& store, const Assignment& point) : store_(store), point_(point) {}
  EvalValue eval(ExprId node);
  // May the device compute another value than eval(node) at this point? Some rounding below was
  // not exact here (its real result is no value of its format, or .ftz flushed a subnormal), or
  // an operation below has no exactly known device value. A rounding to an integer observes the
  // device's value, so one of such an operand is not evaluated (docs/semantics.md, "Roundings
  // to integers"; fuzzer 22:46594: cvt.rpi of the bf16 rounding of 2^-149 is 0 on the device).
  // Computed only where asked (below such a rounding), on nodes eval has valued.
  bool inexact(ExprId node);

private:
  EvalValue compute(ExprId node);
  bool device_may_differ(const Node& n, const EvalValue& value) const;
  EvalValue integer(const Node& n);
  const ExprStore& store_;
  const Assignment& point_;
  std::unordered_map<ExprId, EvalValue> memo_;
  std::unordered_map<ExprId, bool> inexact_; // of nodes in memo_
};

// The leaves (input elements and parameters) below the roots, in a deterministic order.
std::vector<ExprId> leaves_below(const ExprStore& store, const std::vector<ExprId>& roots);

} // namespace volta::symbolic
