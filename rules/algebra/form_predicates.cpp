#include "rules/algebra/form_predicates.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>

namespace volta::algebra {

using canonical::CanonicalForms;
using canonical::Form;
using canonical::Id;

namespace {

bool total_form(const CanonicalForms& forms, Id id, int depth);

// Functions defined for every real argument (the others: sqrt, lg2, and anything unknown).
bool total_function(std::string_view name) {
  for (std::string_view f :
       {"max", "min", "abs", "sin", "cos", "tanh", "pos", "nonneg", "zero", "nonzero", "select"}) {
    if (name == f)
      return true;
  }
  return false;
}

bool total_atom(const CanonicalForms& forms, Id atom, int depth) {
  const canonical::Atom& a = forms.atom(atom);
  if (a.kind == canonical::Atom::Kind::Symbol)
    return true;
  if (!total_function(a.name))
    return false;
  for (Id arg : a.args) {
    if (!total_form(forms, arg, depth + 1))
      return false;
  }
  return true;
}

// A polynomial term: nonnegative powers of total atoms, a total exponent.
bool total_term(const CanonicalForms& forms, const canonical::Term& t, int depth) {
  for (const auto& [atom, k] : forms.monomial(t.mono).factors) {
    if (k < 0 || !total_atom(forms, atom, depth))
      return false;
  }
  if (t.exp == 0)
    return true;
  for (const auto& e : forms.sum(t.exp).terms) {
    if (!total_term(forms, e, depth + 1))
      return false;
  }
  return true;
}

// Total: defined at every real point. Sums are kept monic (divided by their leading term, which
// moves into the scalar), so a term of a sum may carry a negative power that the scalar's
// positive power cancels once expanded: x + y is x · (1 + y·x⁻¹). A form is total when, over
// every term of its expansion, each atom's power is at least zero (bounded below by the
// scalar's power plus, per numerator factor, its least power in that factor), every atom is a
// total function of total arguments, every exponent is a polynomial of total atoms, and every
// denominator is a sum of c · exp(p) with c > 0 (never zero).
bool total_form(const CanonicalForms& forms, Id id, int depth) {
  const Form& f = forms.form(id);
  if (depth > 200 || f.kind != Form::Kind::Finite)
    return false;
  std::map<Id, int64_t> least; // atom -> least power over the expansion
  auto check_exp = [&](Id exp) {
    if (exp == 0)
      return true;
    for (const auto& e : forms.sum(exp).terms) {
      if (!total_term(forms, e, depth + 1))
        return false;
    }
    return true;
  };
  auto check_atoms = [&](const canonical::Term& t) {
    for (const auto& [atom, k] : forms.monomial(t.mono).factors) {
      if (!total_atom(forms, atom, depth))
        return false;
    }
    return check_exp(t.exp);
  };
  if (!check_atoms(f.scalar))
    return false;
  for (const auto& [atom, k] : forms.monomial(f.scalar.mono).factors)
    least[atom] += k;
  for (const auto& [sum, k] : f.num) {
    if (k < 0)
      return false;
    std::map<Id, int64_t> lowest; // per atom of this factor: its least power over the terms
    const auto& terms = forms.sum(sum).terms;
    for (const auto& t : terms) {
      if (!check_atoms(t))
        return false;
      for (const auto& [atom, p] : forms.monomial(t.mono).factors)
        lowest.emplace(atom, 0);
    }
    for (auto& [atom, low] : lowest) {
      for (const auto& t : terms) {
        int64_t p = 0;
        for (const auto& [a, q] : forms.monomial(t.mono).factors) {
          if (a == atom)
            p = q;
        }
        low = std::min(low, p);
      }
      least[atom] += low * k;
    }
  }
  for (const auto& [atom, p] : least) {
    if (p < 0)
      return false;
  }
  for (const auto& [sum, k] : f.den) {
    for (const auto& t : forms.sum(sum).terms) {
      if (t.coef.sign() <= 0 || t.mono != 0 || !check_exp(t.exp))
        return false;
    }
  }
  return true;
}

// c · exp(p) with c > 0: positive wherever defined. With `even_powers`, also a monomial whose
// atoms all have even powers (nonnegative; zero where an atom is).
bool positive_term(const CanonicalForms& forms, const canonical::Term& t, bool even_powers) {
  if (t.coef.sign() <= 0)
    return false;
  if (t.mono == 0)
    return true;
  if (!even_powers)
    return false;
  for (const auto& [atom, k] : forms.monomial(t.mono).factors) {
    if (k % 2 != 0)
      return false;
  }
  return true;
}

bool positive_sum(const CanonicalForms& forms, Id sum, bool even_powers) {
  for (const auto& t : forms.sum(sum).terms) {
    if (!positive_term(forms, t, even_powers))
      return false;
  }
  return true;
}

// Every factor of the form is positive (even_powers = false) or nonnegative (true); the
// scalar's sign times `sign` must be positive.
bool signed_form(const CanonicalForms& forms, const Form& f, int sign, bool even_powers) {
  if (f.kind != Form::Kind::Finite || f.scalar.coef.is_zero())
    return false;
  canonical::Term scalar = f.scalar;
  if (sign < 0)
    scalar.coef = -scalar.coef;
  if (!positive_term(forms, scalar, even_powers))
    return false;
  for (const auto& [sum, k] : f.num) {
    if (!positive_sum(forms, sum, even_powers && k > 0))
      return false;
  }
  for (const auto& [sum, k] : f.den) {
    // A denominator must not vanish: only positive sums (no even-power monomials, which can
    // be zero).
    if (!positive_sum(forms, sum, false))
      return false;
  }
  return true;
}

} // namespace

std::optional<FormPredicate> form_predicate_named(std::string_view name) {
  if (name == "finite")
    return FormPredicate::Finite;
  if (name == "const")
    return FormPredicate::Constant;
  if (name == "positive")
    return FormPredicate::Positive;
  if (name == "nonneg")
    return FormPredicate::Nonnegative;
  if (name == "nonzero")
    return FormPredicate::Nonzero;
  if (name == "negative")
    return FormPredicate::Negative;
  if (name == "total")
    return FormPredicate::Total;
  return std::nullopt;
}

std::string_view name_of(FormPredicate p) {
  switch (p) {
  case FormPredicate::Finite:
    return "finite";
  case FormPredicate::Constant:
    return "const";
  case FormPredicate::Positive:
    return "positive";
  case FormPredicate::Nonnegative:
    return "nonneg";
  case FormPredicate::Nonzero:
    return "nonzero";
  case FormPredicate::Negative:
    return "negative";
  case FormPredicate::Total:
    return "total";
  }
  return "?";
}

bool holds(FormPredicate p, const CanonicalForms& forms, Id id) {
  const Form& f = forms.form(id);
  if (f.kind != Form::Kind::Finite)
    return false; // infinities and undefined values satisfy no predicate, not even "finite"
  canonical::Coef value;
  const bool constant = forms.constant_value(id, value);
  if (p == FormPredicate::Finite)
    return true;
  // The sign predicates hold at every real point, so the value must be defined at every point.
  if (!constant && !total_form(forms, id, 0))
    return false;
  switch (p) {
  case FormPredicate::Finite:
  case FormPredicate::Total:
    return true;
  case FormPredicate::Constant:
    return constant;
  case FormPredicate::Positive:
    return constant ? value.sign() > 0 : signed_form(forms, f, 1, false);
  case FormPredicate::Negative:
    return constant ? value.sign() < 0 : signed_form(forms, f, -1, false);
  case FormPredicate::Nonnegative:
    return constant ? value.sign() >= 0 : signed_form(forms, f, 1, true);
  case FormPredicate::Nonzero:
    return constant ? value.sign() != 0
                    : signed_form(forms, f, 1, false) || signed_form(forms, f, -1, false);
  }
  return false;
}

} // namespace volta::algebra
