// A sound bound on how far a kernel's float computation of a term can be from the term's real
// value, over given ranges of the inputs (issue 35: the float error beside the exact proof).
//
// Each node gets an interval of its real value and a bound E on |device value - real value|,
// propagated bottom-up in the style of FPTaylor and Daisy, but with every term bounded (no
// first-order truncation): with a' = a + e_a (|e_a| <= E_a) and likewise for b,
//   a' + b' = (a + b) + (e_a + e_b)                          E = E_a + E_b
//   a' b'   = ab + a e_b + b e_a + e_a e_b                   E = |A| E_b + |B| E_a + E_a E_b
//   a' / b' = a / b + (e_a b - a e_b) / (b b')               (0 outside B, |b| > E_b)
// and the operation's own rounding adds u |y'| + eta, where |y'| <= |Y| + E bounds the exact
// result of the rounded operands, u is the format's unit roundoff (2^-p to nearest, 2^(1-p)
// directed) and eta the absolute error of an underflow (half the smallest subnormal, the
// smallest one directed, the smallest normal under .ftz). A .ftz operand may also be flushed:
// E grows by the smallest normal. Every double the analysis computes is moved one ulp outward,
// so the bound holds in spite of the analysis's own rounding.
//
// No bound (the reason says why) where the device value is not a continuous function of the
// real one within the ranges: a possible overflow, a division by an interval holding 0, sqrt of
// a value rounding may make negative, a select on a comparison of rounded values (a rounding may
// flip it), a rounding to an integer; where the device's error is not documented or modelled:
// lifted idioms (one node for sequences that round differently), the MMA instructions (format
// 0: the tensor cores' order and rounding are unspecified), bit-level views; and where a leaf
// has no range: an input of an array without one, a symbolic parameter. The approximate
// instructions (rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh .approx; div.approx, div.full) carry
// the error the PTX ISA (9.1) documents for them, and their operand's error through their slope
// over its range. Elements of a kernel share their subterms: one memo serves them.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/symbolic/exact_terms.hpp"
#include "engine/symbolic/expr_store.hpp"
#include "engine/symbolic/id_map.hpp"

namespace volta::symbolic {

struct ValueRange {
  double lo = 0, hi = 0; // lo <= hi, both finite
};

struct ErrorBound {
  ValueRange value; // the real value's range
  double error = 0; // |device value - real value| <= error
};

class RoundingErrorBound {
public:
  // The range of an input element's value (an Input leaf), or nullopt when it has none.
  using InputRange = std::function<std::optional<ValueRange>(uint32_t array)>;

  // `params`: the range of every symbolic parameter (none: a term that reads one is not
  // bounded). `node_budget`: nodes the analysis may visit over all its calls (about 0.7 us each
  // on a large term, whose nodes are out of cache); past it, a term is not bounded ("over the
  // analysis's budget").
  RoundingErrorBound(const ExprStore& store, InputRange ranges,
                     std::optional<ValueRange> params = std::nullopt,
                     uint64_t node_budget = 1'000'000);
  // A set flag (the entry's cancel or time limit) ends the walk as the budget does.
  void set_cancel(const std::atomic<bool>* cancel) { cancel_ = cancel; }

  struct Result {
    std::optional<ErrorBound> bound;
    std::string why; // without a bound: the reason, naming the first node that has none
  };
  Result bound(ExprId root);

private:
  struct Entry {
    ErrorBound bound;
    int32_t why = -1; // index into why_, -1: bounded
  };
  // The node's bound from its operands' (all in memo_ already).
  Entry compute(ExprId id, const Node& n);
  // An operand's bound as the operation of format `format` reads it: a constant is exact in the
  // format or rounded to it; under .ftz a subnormal may be flushed.
  Entry operand(ExprId id, uint8_t format, bool ftz);
  // rsqrt, ex2, lg2, sin, cos and tanh .approx, with the errors the PTX ISA documents.
  Entry approximate(const Node& n);
  // `b` plus an operation's own error in the format of `mods`, given a bound `m` on the
  // magnitude of the exact result of its (rounded) operands: `ulps` units in the last place of
  // the exact value (1/2 for a correct rounding to nearest, 1 directed, k + 1/2 for an
  // instruction documented within k ulp of the correctly rounded result), a relative error
  // `rel`, an absolute one `abs`; with .ftz, a tiny result flushed. No bound where the result
  // may overflow.
  Entry with_own_error(ErrorBound b, FloatMods mods, double m, double ulps, double rel = 0,
                       double abs = 0);
  Entry fail(std::string why);

  const ExprStore& store_;
  // Whether a select's condition is computed exactly: one memo for every select (a chain of
  // them shares its conditions' subterms).
  ExactTerms exact_;
  InputRange ranges_;
  std::optional<ValueRange> params_;
  uint64_t budget_;
  const std::atomic<bool>* cancel_ = nullptr;
  uint64_t visited_ = 0;
  // The memo: a node's entry in entries_ (open addressing: terms of millions of nodes).
  const Entry* memo(ExprId id) const {
    const uint32_t* at = index_.find(id);
    return at ? &entries_[*at] : nullptr;
  }
  IdMap index_;
  std::vector<Entry> entries_;
  std::vector<std::string> why_;
};

} // namespace volta::symbolic
