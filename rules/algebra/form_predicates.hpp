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
#include <optional>
#include <string_view>

#include "rules/algebra/canonical/canonical_forms.hpp"

namespace volta::algebra {

enum class FormPredicate { Finite, Constant, Total, Positive, Nonnegative, Nonzero, Negative };

// The predicate named `name` in rule files: finite, total, const, positive, negative, nonneg,
// nonzero.
std::optional<FormPredicate> form_predicate_named(std::string_view name);
std::string_view name_of(FormPredicate p);

bool holds(FormPredicate p, const canonical::CanonicalForms& forms, canonical::Id form);

} // namespace volta::algebra
