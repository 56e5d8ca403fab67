#include "rules/algebra/form_predicates.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <vector>

#include "support/invariant.hpp"

namespace volta::algebra {

using canonical::CanonicalForms;
using canonical::Form;
using canonical::Id;

namespace {

// Functions defined for every real argument (the others: sqrt, log2, and anything unknown).
bool total_function(std::string_view name) {
  for (std::string_view f :
       {"max", "min", "abs", "sin", "cos", "tanh", "pos", "nonneg", "zero", "nonzero", "select"}) {
    if (name == f)
      return true;
  }
  return false;
}

// The atoms of a polynomial term and of its exponent, into `atoms`; false when a power is
// negative (a term of an exponent or of an argument must be a polynomial).
bool polynomial_term_atoms(const CanonicalForms& forms, const canonical::Term& t,
                           std::vector<Id>& atoms) {
  for (const auto& [atom, k] : forms.monomial(t.mono).factors) {
    if (k < 0)
      return false;
    atoms.push_back(atom);
  }
  if (t.exp == 0)
    return true;
  // Exponents are polynomials without exponentials (canonical_forms.hpp): this recursion is
  // at most two levels deep, whatever the DAG.
  for (const auto& e : forms.sum(t.exp).terms) {
    if (!polynomial_term_atoms(forms, e, atoms))
      return false;
  }
  return true;
}

// What can be read off one form without looking into its atoms' arguments: false when the
// form's own shape is not total; otherwise `atoms` holds every atom whose totality the form's
// depends on (it is total iff they all are).
//
// Sums are kept monic (divided by their leading term, which moves into the scalar), so a term
// of a sum may carry a negative power that the scalar's positive power cancels once expanded:
// x + y is x · (1 + y·x⁻¹). A form is total when, over every term of its expansion, each atom's
// power is at least zero (bounded below by the scalar's power plus, per numerator factor, its
// least power in that factor), every atom is a total function of total arguments, every
// exponent is a polynomial of total atoms, and every denominator is a sum of c · exp(p) with
// c > 0 (never zero).
bool local_total(const CanonicalForms& forms, Id id, std::vector<Id>& atoms) {
  const Form& f = forms.form(id);
  if (f.kind != Form::Kind::Finite)
    return false;
  std::map<Id, int64_t> least; // atom -> least power over the expansion
  auto check_exp = [&](Id exp) {
    if (exp == 0)
      return true;
    for (const auto& e : forms.sum(exp).terms) {
      if (!polynomial_term_atoms(forms, e, atoms))
        return false;
    }
    return true;
  };
  auto term_atoms = [&](const canonical::Term& t) {
    for (const auto& [atom, k] : forms.monomial(t.mono).factors)
      atoms.push_back(atom);
    return check_exp(t.exp);
  };
  if (!term_atoms(f.scalar))
    return false;
  for (const auto& [atom, k] : forms.monomial(f.scalar.mono).factors)
    least[atom] += k;
  for (const auto& [sum, k] : f.num) {
    if (k < 0)
      return false;
    std::map<Id, int64_t> lowest; // per atom of this factor: its least power over the terms
    const auto& terms = forms.sum(sum).terms;
    for (const auto& t : terms) {
      if (!term_atoms(t))
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
  std::sort(atoms.begin(), atoms.end());
  atoms.erase(std::unique(atoms.begin(), atoms.end()), atoms.end());
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

bool TotalityMemo::total(const CanonicalForms& forms, Id root) {
  // Forms and atoms form a DAG (an atom's arguments are forms interned before it) that rule
  // conditions meet with deep sharing: a running maximum is max(max(max(x0, x1), x2), ...), a
  // select chain reuses its condition's operands. The walk is iterative, in post order, and
  // visits each form and atom once over the memo's life: no recursion depth, no tree blow-up.
  enum : int8_t { kUnknown = -1, kNo = 0, kYes = 1 };
  auto slot = [](std::vector<int8_t>& v, Id id) -> int8_t& {
    if (id >= v.size())
      v.resize(std::max<std::size_t>(id + 1, v.size() * 2), kUnknown);
    return v[id];
  };
  if (slot(forms_, root) != kUnknown)
    return slot(forms_, root) == kYes;
  struct Frame {
    bool is_atom;
    Id id;
    bool expanded;
  };
  std::vector<Frame> stack{{false, root, false}};
  std::vector<Id> deps;
  while (!stack.empty()) {
    const Frame fr = stack.back();
    auto memo_of = [&](bool is_atom, Id id) -> int8_t& {
      return is_atom ? slot(atoms_, id) : slot(forms_, id);
    };
    if (memo_of(fr.is_atom, fr.id) != kUnknown) {
      stack.pop_back(); // reached twice before it was decided
      continue;
    }
    deps.clear();
    bool ok = true;
    if (fr.is_atom) {
      const canonical::Atom& a = forms.atom(fr.id);
      if (a.kind != canonical::Atom::Kind::Symbol) {
        ok = total_function(a.name);
        deps.assign(a.args.begin(), a.args.end());
      }
    } else {
      ok = local_total(forms, fr.id, deps);
    }
    // The dependencies of an atom are forms; those of a form, atoms. A dependency known not
    // total decides the node at once; unknown ones are visited first.
    const bool deps_are_atoms = !fr.is_atom;
    bool waiting = false;
    for (std::size_t i = 0; ok && i < deps.size(); ++i) {
      const int8_t known = memo_of(deps_are_atoms, deps[i]);
      if (known == kNo)
        ok = false;
      else if (known == kUnknown)
        waiting = true;
    }
    if (ok && waiting) {
      VOLTA_ASSERT(!fr.expanded, "a node's dependencies are decided when it is reached again");
      stack.back().expanded = true;
      for (Id d : deps) {
        if (memo_of(deps_are_atoms, d) == kUnknown)
          stack.push_back({deps_are_atoms, d, false});
      }
      continue;
    }
    memo_of(fr.is_atom, fr.id) = ok ? kYes : kNo;
    stack.pop_back();
  }
  return slot(forms_, root) == kYes;
}

bool holds(FormPredicate p, const CanonicalForms& forms, Id id) {
  TotalityMemo memo;
  return holds(p, forms, id, memo);
}

bool holds(FormPredicate p, const CanonicalForms& forms, Id id, TotalityMemo& memo) {
  const Form& f = forms.form(id);
  if (f.kind != Form::Kind::Finite)
    return false; // infinities and undefined values satisfy no predicate, not even "finite"
  canonical::Coef value;
  const bool constant = forms.constant_value(id, value);
  if (p == FormPredicate::Finite)
    return true;
  // The sign predicates hold at every real point, so the value must be defined at every point.
  if (!constant && !memo.total(forms, id))
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
