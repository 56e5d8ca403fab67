#pragma once
// Facts about a value read off its canonical form, for the conditions of rewrite rules
// (`:if (nonzero ?a)` in a rule file). Each predicate is sufficient, never a guess; a false
// answer means "not known":
//   finite    a value of the algebra (not ±inf, not opaque); it may still be undefined at
//             some points (x/y at y = 0)
//   total     defined at every real point: polynomials and exponentials of total values, and
//             total functions (max, min, abs, tanh, comparisons ...) of them; no division by a
//             non-constant, no sqrt or log
//   const     a rational constant
//   positive, negative, nonneg, nonzero
//             total, with that sign at every real point: a positive constant times
//             exponentials and even powers (nonneg), sums of such, quotients by positive sums
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "rules/algebra/canonical/canonical_forms.hpp"

namespace volta::algebra {

enum class FormPredicate { Finite, Constant, Total, Positive, Nonnegative, Nonzero, Negative };

// The predicate named `name` in rule files: finite, total, const, positive, negative, nonneg,
// nonzero.
std::optional<FormPredicate> form_predicate_named(std::string_view name);
std::string_view name_of(FormPredicate p);

// Which forms are total, remembered: forms are interned and never change, so an answer stays
// valid for the life of the CanonicalForms it was computed on (one memo per CanonicalForms).
// Deciding a form visits each form and atom below it once over the memo's life, however
// deeply they are shared: a condition on a running maximum of 10^4 values costs one pass.
class TotalityMemo {
public:
  bool total(const canonical::CanonicalForms& forms, canonical::Id form);
  void clear() {
    forms_.clear();
    atoms_.clear();
  }
  std::size_t approx_bytes() const { return forms_.capacity() + atoms_.capacity(); }

private:
  std::vector<int8_t> forms_, atoms_; // by id: -1 not known yet, 0 not total, 1 total
};

bool holds(FormPredicate p, const canonical::CanonicalForms& forms, canonical::Id form);
// The same, with a memo that outlives the call (a rule condition asks about many classes of
// one e-graph).
bool holds(FormPredicate p, const canonical::CanonicalForms& forms, canonical::Id form,
           TotalityMemo& memo);

} // namespace volta::algebra
