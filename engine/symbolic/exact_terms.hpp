// Terms the device computes without rounding: every operator in them is exact by ops.def's
// `exact` column (moves, sign changes, comparisons, selects, min/max, integer and bit-level
// operations, conversions to integers), none with .ftz, none a lifted idiom. For such a term the
// proof over the reals is a claim about the device's very values: where the reference's value is
// a number, the optimized kernel must store that number, with no rounding to excuse a difference.
// The emulator cross-check holds the elements both kernels compute exactly to that
// (emulate/output_comparison.cpp): a width change, a register read or a memory format the engine
// modelled wrongly shows there even in a float array (soundness class 43-relaxed-widths: the low
// half of an f64's encoding read as the f32 it was widened from).
#pragma once

#include <unordered_map>

#include "engine/symbolic/expr_store.hpp"

namespace volta::symbolic {

class ExactTerms {
public:
  // `flushing_roundings`: whether a rounding to an integer under .ftz (kRoundFlushes) counts as
  // exact. The device's value is then not the real rounding of its operand, but it is a known
  // function of it (round(flush(x))): a consumer that models the flush, like the Z3
  // translation, may count it; the cross-check, which compares to the real value, may not.
  explicit ExactTerms(const ExprStore& store, bool flushing_roundings = false)
      : store_(store), flushing_roundings_(flushing_roundings) {}

  // Whether every node below `root` (itself included) is computed exactly. Memoized: elements
  // sharing subterms cost one walk.
  bool exact(ExprId root);

private:
  // The node's own operation, its operands aside.
  bool exact_operation(ExprId id, const Node& n) const;

  const ExprStore& store_;
  bool flushing_roundings_;
  std::unordered_map<ExprId, bool> memo_;
};

} // namespace volta::symbolic
