// The canonical forms (canonical_forms.hpp). engine/smt/poly_forms is a second polynomial
// normal form on purpose: docs/architecture.md, "Two polynomial normal forms".
#include "rules/algebra/canonical/canonical_forms.hpp"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>

#include "support/invariant.hpp"

namespace volta::canonical {

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

uint64_t hash_factors(const std::vector<std::pair<Id, int32_t>>& f, uint64_t h) {
  for (const auto& [id, k] : f)
    h = mix(mix(h, id), static_cast<uint64_t>(k));
  return h;
}

uint64_t hash_term(const Term& t, uint64_t h) {
  return mix(mix(mix(h, t.coef.hash()), t.mono), t.exp);
}

// Built field by field: brace-initializing a Term with a temporary Coef trips a false
// -Wmaybe-uninitialized in GCC 12 (shared_ptr inside Coef).
Term make_term(Coef coef, Id mono, Id exp) {
  Term t;
  t.coef = std::move(coef);
  t.mono = mono;
  t.exp = exp;
  return t;
}

bool same_term(const Term& a, const Term& b) {
  return a.mono == b.mono && a.exp == b.exp && a.coef == b.coef;
}

// Strictly ordered by (monomial, exponential) and no zero coefficient: the normal form of a
// sum's terms (make_sum's result).
bool terms_normalized(const std::vector<Term>& terms) {
  for (size_t i = 0; i < terms.size(); ++i) {
    if (terms[i].coef.is_zero())
      return false;
    if (i > 0) {
      const Term &a = terms[i - 1], &b = terms[i];
      if (a.mono != b.mono ? a.mono >= b.mono : a.exp >= b.exp)
        return false;
    }
  }
  return true;
}

// Sorted by id, strictly (merged), and no zero power: the normal form of a factor list.
bool factors_normalized(const std::vector<std::pair<Id, int32_t>>& f) {
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i].second == 0 || (i > 0 && f[i - 1].first >= f[i].first))
      return false;
  }
  return true;
}

bool same_form(const Form& a, const Form& b) {
  return a.kind == b.kind && same_term(a.scalar, b.scalar) && a.num == b.num && a.den == b.den &&
         a.reason == b.reason;
}

// Multiset union of factor lists (sorted by id).
std::vector<std::pair<Id, int32_t>> merge_factors(const std::vector<std::pair<Id, int32_t>>& a,
                                                  const std::vector<std::pair<Id, int32_t>>& b,
                                                  int sign_b) {
  std::vector<std::pair<Id, int32_t>> out;
  out.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) {
      out.push_back(a[i++]);
    } else if (i == a.size() || b[j].first < a[i].first) {
      out.emplace_back(b[j].first, sign_b * b[j].second);
      ++j;
    } else {
      const int32_t k = a[i].second + sign_b * b[j].second;
      if (k != 0)
        out.emplace_back(a[i].first, k);
      ++i;
      ++j;
    }
  }
  return out;
}

} // namespace

CanonicalForms::CanonicalForms() {
  intern_monomial(Monomial{}); // id 0: 1
  intern_sum(Sum{});           // id 0: the zero polynomial
  Form zero;
  zero.scalar.coef = Coef(0);
  zero_ = intern_form(zero);
  Form one;
  one.scalar.coef = Coef(1);
  one_ = intern_form(one);
  Form p;
  p.kind = Form::Kind::PosInf;
  pos_inf_ = intern_form(p);
  Form n;
  n.kind = Form::Kind::NegInf;
  neg_inf_ = intern_form(n);
  over_budget_ = undefined(BudgetExceeded::kMessage);
}

void CanonicalForms::charge(size_t terms) {
  terms_used_ += terms;
  if (terms_used_ > term_budget_)
    throw BudgetExceeded();
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed))
    throw Cancelled();
}

// ---------------------------------------------------------------------------------------------
// Interning
// ---------------------------------------------------------------------------------------------

// Each kind of value lives in an egraph::InternTable: a hash of the normalized value, then the
// structural equality below. Equal ids mean equal values only because every value is normalized
// before it is interned; the asserts state the normal form each table relies on.

Id CanonicalForms::intern_form(Form f) {
  if (f.kind == Form::Kind::Finite && f.scalar.coef.is_zero()) {
    f.scalar = Term();
    f.num.clear();
    f.den.clear();
  }
  VOLTA_ASSERT(factors_normalized(f.num) && factors_normalized(f.den),
               "a form's factor lists are sorted by sum id, with nonzero powers");
  VOLTA_ASSERT(f.kind == Form::Kind::Finite || (f.num.empty() && f.den.empty()),
               "only a finite form has factors");
  uint64_t h = mix(static_cast<uint64_t>(f.kind), std::hash<std::string>{}(f.reason));
  h = hash_term(f.scalar, h);
  h = hash_factors(f.num, h);
  h = hash_factors(f.den, mix(h, 0xde));
  return forms_.intern(h, std::move(f), same_form);
}

Id CanonicalForms::intern_atom(Atom a) {
  uint64_t h = mix(mix(static_cast<uint64_t>(a.kind) | (a.positive ? 2u : 0u), a.key),
                   std::hash<std::string>{}(a.name));
  for (Id x : a.args) {
    VOLTA_ASSERT(x < forms_.size(), "an atom's arguments are interned forms");
    h = mix(h, x);
  }
  return atoms_.intern(h, std::move(a), [](const Atom& x, const Atom& y) {
    return x.kind == y.kind && x.key == y.key && x.name == y.name && x.args == y.args &&
           x.positive == y.positive;
  });
}

Id CanonicalForms::intern_monomial(Monomial m) {
  VOLTA_ASSERT(factors_normalized(m.factors),
               "a monomial's factors are sorted by atom id, with nonzero powers");
  const uint64_t h = hash_factors(m.factors, 0x51);
  return monomials_.intern(
      h, std::move(m), [](const Monomial& a, const Monomial& b) { return a.factors == b.factors; });
}

Id CanonicalForms::intern_sum(Sum s) {
  // Normalized (make_sum): terms strictly ordered by (monomial, exponential), none zero; the
  // hash-consing below, and so every equality of forms, relies on it.
  VOLTA_ASSERT(terms_normalized(s.terms),
               "a sum's terms are strictly ordered by (monomial, exponential), none zero");
  uint64_t h = 0x5u;
  for (const auto& t : s.terms)
    h = hash_term(t, h);
  return sums_.intern(h, std::move(s), [](const Sum& x, const Sum& y) {
    return x.terms.size() == y.terms.size() &&
           std::equal(x.terms.begin(), x.terms.end(), y.terms.begin(), same_term);
  });
}

// ---------------------------------------------------------------------------------------------
// Monomials, polynomials, terms
// ---------------------------------------------------------------------------------------------

Id CanonicalForms::mono_mul(Id a, Id b) {
  if (a == 0)
    return b;
  if (b == 0)
    return a;
  return intern_monomial(Monomial{merge_factors(monomials_[a].factors, monomials_[b].factors, 1)});
}

Id CanonicalForms::mono_inverse(Id a) {
  if (a == 0)
    return 0;
  Monomial m = monomials_[a];
  for (auto& f : m.factors)
    f.second = -f.second;
  return intern_monomial(std::move(m));
}

Id CanonicalForms::poly_add(Id a, Id b) {
  if (a == 0)
    return b;
  if (b == 0)
    return a;
  std::vector<Term> terms = sums_[a].terms;
  const auto& bt = sums_[b].terms;
  terms.insert(terms.end(), bt.begin(), bt.end());
  return intern_sum(make_sum(std::move(terms)));
}

Id CanonicalForms::poly_neg(Id a) {
  if (a == 0)
    return 0;
  Sum s = sums_[a];
  for (auto& t : s.terms)
    t.coef = -t.coef;
  return intern_sum(std::move(s));
}

Term CanonicalForms::term_mul(const Term& a, const Term& b) {
  return make_term(a.coef * b.coef, mono_mul(a.mono, b.mono), poly_add(a.exp, b.exp));
}

Term CanonicalForms::term_inverse(const Term& a) {
  return make_term(Coef(1) / a.coef, mono_inverse(a.mono), poly_neg(a.exp));
}

// Both orders below read the terms (factors) from the highest id down. Any order invariant under
// adding a polynomial (multiplying by a monomial) gives a canonical leading term; reading from
// the highest id makes the *oldest* term of a sum built left to right the least one (atoms and
// monomials of later terms are interned later, with higher ids), so that a running sum that
// grows by one term per step keeps its leading term, and its monic factor keeps every term it
// had: the step costs one new term, not a rescaled copy of all of them (issue 34's cliff).
int CanonicalForms::compare_poly(Id a, Id b) const {
  if (a == b)
    return 0;
  const auto& x = sums_[a].terms;
  const auto& y = sums_[b].terms;
  ptrdiff_t i = static_cast<ptrdiff_t>(x.size()) - 1, j = static_cast<ptrdiff_t>(y.size()) - 1;
  while (i >= 0 || j >= 0) {
    // Exponent polynomials have no exponentials, so terms are ordered by monomial id.
    if (j < 0 || (i >= 0 && x[i].mono > y[j].mono))
      return x[i].coef.sign();
    if (i < 0 || y[j].mono > x[i].mono)
      return -y[j].coef.sign();
    if (!(x[i].coef == y[j].coef))
      return x[i].coef < y[j].coef ? -1 : 1;
    --i;
    --j;
  }
  return 0;
}

int CanonicalForms::compare_mono(Id a, Id b) const {
  if (a == b)
    return 0;
  const auto& x = monomials_[a].factors;
  const auto& y = monomials_[b].factors;
  ptrdiff_t i = static_cast<ptrdiff_t>(x.size()) - 1, j = static_cast<ptrdiff_t>(y.size()) - 1;
  while (i >= 0 || j >= 0) {
    if (j < 0 || (i >= 0 && x[i].first > y[j].first))
      return x[i].second < 0 ? -1 : 1;
    if (i < 0 || y[j].first > x[i].first)
      return y[j].second < 0 ? 1 : -1;
    if (x[i].second != y[j].second)
      return x[i].second < y[j].second ? -1 : 1;
    --i;
    --j;
  }
  return 0;
}

int CanonicalForms::compare_terms(const Term& a, const Term& b) const {
  if (int c = compare_poly(a.exp, b.exp))
    return c;
  return compare_mono(a.mono, b.mono);
}

// ---------------------------------------------------------------------------------------------
// Sums
// ---------------------------------------------------------------------------------------------

CanonicalForms::Sum CanonicalForms::make_sum(std::vector<Term> terms) {
  charge(terms.size());
  std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) {
    return a.mono != b.mono ? a.mono < b.mono : a.exp < b.exp;
  });
  Sum s;
  s.terms.reserve(terms.size());
  for (auto& t : terms) {
    if (!s.terms.empty() && s.terms.back().mono == t.mono && s.terms.back().exp == t.exp) {
      s.terms.back().coef += t.coef;
      if (s.terms.back().coef.is_zero())
        s.terms.pop_back();
    } else if (!t.coef.is_zero()) {
      s.terms.push_back(std::move(t));
    }
  }
  VOLTA_ASSERT(terms_normalized(s.terms), "make_sum sorts, merges and drops zero terms");
  return s;
}

// Takes copies: term_mul interns polynomials, which may move sums_ (and a factor passed by
// reference from it).
CanonicalForms::Sum CanonicalForms::sum_mul(Sum a, Sum b) {
  charge(a.terms.size() * b.terms.size());
  std::vector<Term> terms;
  terms.reserve(a.terms.size() * b.terms.size());
  for (const auto& x : a.terms) {
    for (const auto& y : b.terms)
      terms.push_back(term_mul(x, y));
  }
  return make_sum(std::move(terms));
}

CanonicalForms::Sum CanonicalForms::sum_scale(const Sum& a, Term t) {
  std::vector<Term> terms;
  terms.reserve(a.terms.size());
  for (const auto& x : a.terms)
    terms.push_back(term_mul(x, t));
  return make_sum(std::move(terms));
}

CanonicalForms::Sum CanonicalForms::expand_numerator(const Form& f) {
  Sum s;
  if (f.scalar.coef.is_zero())
    return s;
  s.terms.push_back(f.scalar);
  for (const auto& [id, k] : f.num) {
    for (int32_t i = 0; i < k; ++i)
      s = sum_mul(s, sums_[id]);
  }
  return s;
}

Form CanonicalForms::from_sum(Sum s) {
  Form f;
  if (s.terms.empty()) {
    f.scalar.coef = Coef(0);
    return f;
  }
  if (s.terms.size() == 1) {
    f.scalar = s.terms[0];
    return f;
  }
  size_t lead = 0;
  for (size_t i = 1; i < s.terms.size(); ++i) {
    if (compare_terms(s.terms[i], s.terms[lead]) < 0)
      lead = i;
  }
  f.scalar = s.terms[lead];
  // Already monic (a running sum that kept its leading term, add_all): nothing to divide.
  const bool monic_already = same_term(f.scalar, make_term(Coef(1), 0, 0));
  const size_t terms = s.terms.size();
  const Id monic = intern_sum(monic_already ? std::move(s) : sum_scale(s, term_inverse(f.scalar)));
  // Monic: the leading term divided by itself is 1, so a sum and each multiple of it give the
  // same factor (the header's normal form).
  VOLTA_ASSERT(sums_[monic].terms.size() == terms, "scaling keeps every term");
  VOLTA_ASSERT(
      std::any_of(sums_[monic].terms.begin(), sums_[monic].terms.end(),
                  [](const Term& t) { return t.coef == Coef(1) && t.mono == 0 && t.exp == 0; }),
      "a factor sum is monic: its leading term became 1");
  f.num.emplace_back(monic, 1);
  return f;
}

Id CanonicalForms::form_of_term(const Term& t) {
  Form f;
  f.scalar = t;
  return intern_form(std::move(f));
}

Id CanonicalForms::form_of_atom(Id atom) {
  Monomial m;
  m.factors.emplace_back(atom, 1);
  return form_of_term(make_term(Coef(1), intern_monomial(std::move(m)), 0));
}

// ---------------------------------------------------------------------------------------------
// Leaves
// ---------------------------------------------------------------------------------------------

Id CanonicalForms::constant(const Coef& c) {
  return form_of_term(make_term(c, 0, 0));
}

Id CanonicalForms::symbol(uint64_t key, std::string name) {
  Atom a;
  a.kind = Atom::Kind::Symbol;
  a.key = key;
  a.name = std::move(name);
  return form_of_atom(intern_atom(std::move(a)));
}

Id CanonicalForms::positive_symbol(uint64_t key, std::string name) {
  Atom a;
  a.kind = Atom::Kind::Symbol;
  a.key = key;
  a.name = std::move(name);
  a.positive = true;
  return form_of_atom(intern_atom(std::move(a)));
}

Id CanonicalForms::pos_inf() {
  return pos_inf_;
}
Id CanonicalForms::neg_inf() {
  return neg_inf_;
}

Id CanonicalForms::undefined(std::string reason) {
  Form f;
  f.kind = Form::Kind::Undefined;
  f.reason = std::move(reason);
  return intern_form(std::move(f));
}

bool CanonicalForms::constant_value(Id id, Coef& out) const {
  const Form& f = forms_[id];
  if (f.kind != Form::Kind::Finite || !f.num.empty() || !f.den.empty() || f.scalar.mono != 0 ||
      f.scalar.exp != 0) {
    return false;
  }
  out = f.scalar.coef;
  return true;
}

// A finite value known to be positive: c · m · exp(p) with c > 0, no factor, and a monomial m
// of positive atoms only (any power of a positive real is positive): 0.25 · ln2 · e^x.
bool CanonicalForms::is_positive_constant_like(const Form& f) const {
  return f.kind == Form::Kind::Finite && f.num.empty() && f.den.empty() &&
         is_positive_monomial(f.scalar.mono) && f.scalar.coef.sign() > 0;
}

bool CanonicalForms::is_positive_monomial(Id mono) const {
  if (mono == 0)
    return true;
  for (const auto& [atom, power] : monomials_[mono].factors) {
    if (!atoms_[atom].positive)
      return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Arithmetic
// ---------------------------------------------------------------------------------------------

Id CanonicalForms::neg(Id a) {
  const Form& f = forms_[a];
  switch (f.kind) {
  case Form::Kind::PosInf:
    return neg_inf_;
  case Form::Kind::NegInf:
    return pos_inf_;
  case Form::Kind::Undefined:
    return a;
  default:
    break;
  }
  Form g = f;
  g.scalar.coef = -g.scalar.coef;
  return intern_form(std::move(g));
}

Id CanonicalForms::multiply_factors(const Form& a, const Form& b) {
  Form r;
  r.scalar = term_mul(a.scalar, b.scalar);
  auto num = merge_factors(a.num, b.num, 1);
  auto den = merge_factors(a.den, b.den, 1);
  // Cancel factors present on both sides.
  std::vector<std::pair<Id, int32_t>> n2, d2;
  size_t i = 0, j = 0;
  while (i < num.size() || j < den.size()) {
    if (j == den.size() || (i < num.size() && num[i].first < den[j].first)) {
      n2.push_back(num[i++]);
    } else if (i == num.size() || den[j].first < num[i].first) {
      d2.push_back(den[j++]);
    } else {
      const int32_t k = num[i].second - den[j].second;
      if (k > 0)
        n2.emplace_back(num[i].first, k);
      if (k < 0)
        d2.emplace_back(num[i].first, -k);
      ++i;
      ++j;
    }
  }
  r.num = std::move(n2);
  r.den = std::move(d2);
  return intern_form(std::move(r));
}

Id CanonicalForms::mul(Id a, Id b) {
  const Form& x = forms_[a];
  const Form& y = forms_[b];
  if (x.kind == Form::Kind::Undefined)
    return a;
  if (y.kind == Form::Kind::Undefined)
    return b;
  const bool xi = x.kind != Form::Kind::Finite, yi = y.kind != Form::Kind::Finite;
  if (xi || yi) {
    if (xi && yi)
      return (x.kind == y.kind) ? pos_inf_ : neg_inf_;
    const Form& fin = xi ? y : x;
    const Form::Kind inf = xi ? x.kind : y.kind;
    if (fin.is_zero())
      return undefined("0 × infinity");
    if (is_positive_constant_like(fin))
      return inf == Form::Kind::PosInf ? pos_inf_ : neg_inf_;
    Form negated = fin;
    negated.scalar.coef = -negated.scalar.coef;
    if (is_positive_constant_like(negated))
      return inf == Form::Kind::PosInf ? neg_inf_ : pos_inf_;
    return undefined("infinity × a value of unknown sign");
  }
  if (x.is_zero())
    return a;
  if (y.is_zero())
    return b;
  const Form xc = x, yc = y; // intern_form may reallocate forms_
  return multiply_factors(xc, yc);
}

Id CanonicalForms::div(Id a, Id b) {
  const Form& x = forms_[a];
  const Form& y = forms_[b];
  if (x.kind == Form::Kind::Undefined)
    return a;
  if (y.kind == Form::Kind::Undefined)
    return b;
  if (y.is_zero())
    return undefined("division by zero");
  if (y.kind != Form::Kind::Finite) {
    if (x.kind == Form::Kind::Finite)
      return zero_;
    return undefined("infinity / infinity");
  }
  if (x.kind != Form::Kind::Finite) {
    Form inverse;
    inverse.scalar = term_inverse(y.scalar);
    inverse.num = y.den;
    inverse.den = y.num;
    const Id inv = intern_form(std::move(inverse));
    return mul(a, inv);
  }
  if (x.is_zero())
    return a;
  Form inverse;
  inverse.scalar = term_inverse(y.scalar);
  inverse.num = y.den;
  inverse.den = y.num;
  const Form xc = x;
  return multiply_factors(xc, inverse);
}

Id CanonicalForms::add(Id a, Id b) {
  const Id parts[2] = {a, b};
  return add_all(parts);
}

Id CanonicalForms::add_all(std::span<const Id> parts) {
  // Infinities and undefined values first.
  bool has_pos = false, has_neg = false;
  for (Id p : parts) {
    const Form& f = forms_[p];
    if (f.kind == Form::Kind::Undefined)
      return p;
    has_pos |= f.kind == Form::Kind::PosInf;
    has_neg |= f.kind == Form::Kind::NegInf;
  }
  if (has_pos && has_neg)
    return undefined("infinity - infinity");
  if (has_pos)
    return pos_inf_;
  if (has_neg)
    return neg_inf_;
  size_t nonzero = 0;
  Id last = zero_;
  for (Id p : parts) {
    if (!forms_[p].is_zero()) {
      ++nonzero;
      last = p;
    }
  }
  if (nonzero == 0)
    return zero_;
  if (nonzero == 1)
    return last;
  // The sum is computed relative to a pivot term P, the scalar of the part with the largest
  // numerator: Σ s_f·N_f/D_f = P · Σ (s_f/P)·N_f/D_f. The pivot's part enters with scalar 1, so
  // its monic factor's terms are copied as they are, not multiplied term by term (each product
  // interns a new exponent polynomial). A running sum that gains one term per step (online
  // softmax: sum·e^{m_old - m_new} + e^{s - m_new}) then costs one product per step instead of
  // one per term already summed. The result is the form of the plain sum: the leading term is
  // chosen by an order invariant under multiplication by a term, so the monic factor of
  // Σ (s_f/P)·N_f is that of P·Σ (s_f/P)·N_f, and its scalar is P times the relative one.
  const auto numerator_size = [&](const Form& f) {
    size_t n = 1;
    for (const auto& [id, k] : f.num)
      n *= sums_[id].terms.size() * static_cast<size_t>(k);
    return n;
  };
  size_t pivot_size = 0;
  Term pivot;
  for (Id p : parts) {
    const Form& f = forms_[p];
    if (!f.is_zero() && numerator_size(f) > pivot_size) {
      pivot_size = numerator_size(f);
      pivot = f.scalar;
    }
  }
  const Term one = make_term(Coef(1), 0, 0);
  const Term pivot_inverse = term_inverse(pivot);
  // Group the relative numerators by denominator; sum each group in one pass.
  std::map<std::vector<std::pair<Id, int32_t>>, std::vector<Term>> groups;
  for (Id p : parts) {
    Form f = forms_[p];
    if (f.is_zero())
      continue;
    f.scalar = same_term(f.scalar, pivot) ? one : term_mul(f.scalar, pivot_inverse);
    // 1 · one monic factor: its terms as they are (what expand_numerator would rebuild).
    const bool plain = same_term(f.scalar, one) && f.num.size() == 1 && f.num[0].second == 1;
    if (plain)
      charge(sums_[f.num[0].first].terms.size());
    Sum n = plain ? sums_[f.num[0].first] : expand_numerator(f);
    auto& terms = groups[f.den];
    terms.insert(terms.end(), n.terms.begin(), n.terms.end());
  }
  // Common denominator: the multiset maximum of the groups' denominators.
  std::vector<std::pair<Id, int32_t>> common;
  for (const auto& [den, terms] : groups) {
    std::vector<std::pair<Id, int32_t>> merged;
    size_t i = 0, j = 0;
    while (i < common.size() || j < den.size()) {
      if (j == den.size() || (i < common.size() && common[i].first < den[j].first)) {
        merged.push_back(common[i++]);
      } else if (i == common.size() || den[j].first < common[i].first) {
        merged.push_back(den[j++]);
      } else {
        merged.emplace_back(common[i].first, std::max(common[i].second, den[j].second));
        ++i;
        ++j;
      }
    }
    common = std::move(merged);
  }
  if (groups.size() == 1 && common.empty()) {
    // One group without a denominator: its sum is the numerator (no second merge).
    Form numerator = from_sum(make_sum(std::move(groups.begin()->second)));
    if (!numerator.scalar.coef.is_zero())
      numerator.scalar = term_mul(pivot, numerator.scalar);
    return intern_form(std::move(numerator));
  }
  std::vector<Term> all;
  for (auto& [den, terms] : groups) {
    Sum s = make_sum(std::move(terms));
    // Multiply by the factors of the common denominator this group lacks.
    const auto missing = merge_factors(common, den, -1);
    for (const auto& [id, k] : missing) {
      for (int32_t i = 0; i < k; ++i)
        s = sum_mul(s, sums_[id]);
    }
    all.insert(all.end(), s.terms.begin(), s.terms.end());
  }
  Form numerator = from_sum(make_sum(std::move(all)));
  if (!numerator.scalar.coef.is_zero())
    numerator.scalar = term_mul(pivot, numerator.scalar);
  if (common.empty())
    return intern_form(std::move(numerator));
  Form denominator_inverse;
  denominator_inverse.scalar = make_term(Coef(1), 0, 0);
  denominator_inverse.den = common;
  return multiply_factors(numerator, denominator_inverse);
}

Id CanonicalForms::exp(Id a) {
  const Form f = forms_[a];
  switch (f.kind) {
  case Form::Kind::NegInf:
    return zero_;
  case Form::Kind::PosInf:
    return pos_inf_;
  case Form::Kind::Undefined:
    return a;
  default:
    break;
  }
  if (f.den.empty()) {
    // exp of a sum of terms: the exponent must be a polynomial. A term that carries an
    // exponential of its own (exp(x + e^y)) keeps it as an atom "exp" of that exponential
    // inside the exponent, so e^{a+b} = e^a·e^b holds whatever a and b contain.
    Sum s = expand_numerator(f);
    for (auto& t : s.terms) {
      if (t.exp == 0)
        continue;
      const Id inner = form_of_term(make_term(Coef(1), 0, t.exp));
      Atom atom;
      atom.kind = Atom::Kind::Apply;
      atom.name = "exp";
      atom.positive = true;
      atom.args.push_back(inner);
      Monomial m;
      m.factors.emplace_back(intern_atom(std::move(atom)), 1);
      t.mono = mono_mul(t.mono, intern_monomial(std::move(m)));
      t.exp = 0;
    }
    return form_of_term(make_term(Coef(1), 0, intern_sum(make_sum(std::move(s.terms)))));
  }
  const Id args[1] = {canonical(a)};
  return apply("exp", args);
}

namespace {
bool is_atom_form(const Form& f) {
  return f.kind == Form::Kind::Finite && f.num.empty() && f.den.empty() && f.scalar.exp == 0 &&
         f.scalar.coef.is_one();
}
} // namespace

Id CanonicalForms::max(std::span<const Id> args) {
  std::vector<Id> keep;
  std::vector<Id> work(args.begin(), args.end());
  Coef best;
  bool all_constant = true;
  for (size_t i = 0; i < work.size(); ++i) {
    const Id x = work[i];
    const Form& f = forms_[x];
    if (f.kind == Form::Kind::Undefined)
      return x;
    if (f.kind == Form::Kind::PosInf)
      return pos_inf_;
    if (f.kind == Form::Kind::NegInf)
      continue;
    const Id c = canonical(x);
    // Flatten nested max.
    const Form& cf = forms_[c];
    if (is_atom_form(cf)) {
      const auto& m = monomials_[cf.scalar.mono].factors;
      if (m.size() == 1 && m[0].second == 1 && atoms_[m[0].first].kind == Atom::Kind::Apply &&
          atoms_[m[0].first].name == "max") {
        const auto nested = atoms_[m[0].first].args;
        work.insert(work.end(), nested.begin(), nested.end());
        continue;
      }
    }
    Coef v;
    if (constant_value(c, v)) {
      if (keep.empty() || best < v)
        best = v;
    } else {
      all_constant = false;
    }
    keep.push_back(c);
  }
  if (keep.empty())
    return neg_inf_;
  if (all_constant)
    return constant(best);
  std::sort(keep.begin(), keep.end());
  keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
  if (keep.size() == 1)
    return keep[0];
  Atom a;
  a.kind = Atom::Kind::Apply;
  a.name = "max";
  a.args = std::move(keep);
  return form_of_atom(intern_atom(std::move(a)));
}

Id CanonicalForms::min(std::span<const Id> args) {
  // min(x...) = -max(-x...)
  std::vector<Id> negated;
  negated.reserve(args.size());
  for (Id x : args)
    negated.push_back(neg(x));
  return neg(max(negated));
}

Id CanonicalForms::apply(const std::string& fn, std::span<const Id> args) {
  Atom a;
  a.kind = Atom::Kind::Apply;
  a.name = fn;
  a.positive = fn == "exp"; // e^x > 0 for every real x
  for (Id x : args) {
    const Form& f = forms_[x];
    if (f.kind == Form::Kind::Undefined)
      return x;
    if (f.kind != Form::Kind::Finite)
      return undefined(fn + " of infinity");
    a.args.push_back(canonical(x));
  }
  return form_of_atom(intern_atom(std::move(a)));
}

Id CanonicalForms::compare(Cmp k, Id a, Id b) {
  const Id d = canonical(sub(a, b));
  const Form& f = forms_[d];
  if (f.kind == Form::Kind::Undefined)
    return d;
  Coef v;
  if (constant_value(d, v) || f.kind != Form::Kind::Finite) {
    const int s = f.kind == Form::Kind::PosInf ? 1 : f.kind == Form::Kind::NegInf ? -1 : v.sign();
    bool r = false;
    switch (k) {
    case Cmp::Eq:
      r = s == 0;
      break;
    case Cmp::Ne:
      r = s != 0;
      break;
    case Cmp::Lt:
      r = s < 0;
      break;
    case Cmp::Le:
      r = s <= 0;
      break;
    case Cmp::Gt:
      r = s > 0;
      break;
    case Cmp::Ge:
      r = s >= 0;
      break;
    }
    return constant(Coef(r ? 1 : 0));
  }
  // Normalize to a predicate of one difference: pos(d) (d > 0), nonneg(d) (d >= 0), zero(d).
  std::string name;
  Id arg = d;
  switch (k) {
  case Cmp::Gt:
    name = "pos";
    break;
  case Cmp::Ge:
    name = "nonneg";
    break;
  case Cmp::Lt:
    name = "pos";
    arg = canonical(neg(d));
    break;
  case Cmp::Le:
    name = "nonneg";
    arg = canonical(neg(d));
    break;
  case Cmp::Eq:
    name = "zero";
    break;
  case Cmp::Ne:
    name = "nonzero";
    break;
  }
  if (k == Cmp::Eq || k == Cmp::Ne) {
    // zero(d) = zero(-d): pick the sign with a positive leading coefficient.
    if (forms_[arg].scalar.coef.sign() < 0)
      arg = canonical(neg(arg));
  }
  const Id args[1] = {arg};
  return apply(name, args);
}

Id CanonicalForms::select(Id cond, Id if_true, Id if_false) {
  Coef v;
  if (constant_value(canonical(cond), v))
    return v.is_zero() ? if_false : if_true;
  if (forms_[cond].kind == Form::Kind::Undefined)
    return cond;
  if (equal(if_true, if_false))
    return if_true;
  // cond = pos(d) or nonneg(d): select(d > 0, x, y) is max(x, y) when d = x - y, min when
  // d = y - x (ties pick equal values either way).
  const Form& cf = forms_[canonical(cond)];
  if (is_atom_form(cf)) {
    const auto& m = monomials_[cf.scalar.mono].factors;
    if (m.size() == 1 && m[0].second == 1) {
      const Atom& at = atoms_[m[0].first];
      if (at.kind == Atom::Kind::Apply && (at.name == "pos" || at.name == "nonneg") &&
          at.args.size() == 1) {
        const Id d = at.args[0];
        const Id pair[2] = {if_true, if_false};
        if (canonical(sub(if_true, if_false)) == d)
          return max(pair);
        if (canonical(sub(if_false, if_true)) == d)
          return min(pair);
      }
    }
  }
  const Id args[3] = {cond, if_true, if_false};
  return apply("select", args);
}

// ---------------------------------------------------------------------------------------------
// Canonical forms and comparison
// ---------------------------------------------------------------------------------------------

Id CanonicalForms::canonical(Id a) {
  const Form& f = forms_[a];
  if (f.kind != Form::Kind::Finite)
    return a;
  if (f.num.empty() || (f.num.size() == 1 && f.num[0].second == 1))
    return a;
  auto it = canonical_cache_.find(a);
  if (it != canonical_cache_.end())
    return it->second;
  const Form copy = f;
  Form expanded = from_sum(expand_numerator(copy));
  Id result;
  if (copy.den.empty()) {
    result = intern_form(std::move(expanded));
  } else {
    Form inverse;
    inverse.scalar = make_term(Coef(1), 0, 0);
    inverse.den = copy.den;
    result = multiply_factors(expanded, inverse);
  }
  canonical_cache_.emplace(a, result);
  return result;
}

bool CanonicalForms::equal_by_cross_multiplication(Id a, Id b) {
  const Form x = forms_[canonical(a)];
  const Form y = forms_[canonical(b)];
  if (x.kind != Form::Kind::Finite || y.kind != Form::Kind::Finite)
    return false;
  auto denominator = [&](const Form& f) {
    Sum s;
    s.terms.push_back(make_term(Coef(1), 0, 0));
    for (const auto& [id, k] : f.den) {
      for (int32_t i = 0; i < k; ++i)
        s = sum_mul(s, sums_[id]);
    }
    return s;
  };
  const Sum left = sum_mul(expand_numerator(x), denominator(y));
  const Sum right = sum_mul(expand_numerator(y), denominator(x));
  return left.terms.size() == right.terms.size() &&
         std::equal(left.terms.begin(), left.terms.end(), right.terms.begin(), same_term);
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

std::string CanonicalForms::print(Id id, size_t max_chars) const {
  if (max_chars < 4)
    return "...";
  const Form& f = forms_[id];
  switch (f.kind) {
  case Form::Kind::PosInf:
    return "inf";
  case Form::Kind::NegInf:
    return "-inf";
  case Form::Kind::Undefined:
    return "undefined(" + f.reason + ")";
  default:
    break;
  }
  auto print_mono = [&](Id m) {
    std::string s;
    for (const auto& [atom, k] : monomials_[m].factors) {
      if (!s.empty())
        s += "*";
      const Atom& at = atoms_[atom];
      if (at.kind == Atom::Kind::Symbol) {
        s += at.name;
      } else {
        s += at.name + "(";
        const size_t share = max_chars / (2 * std::max<size_t>(1, at.args.size()));
        for (size_t i = 0; i < at.args.size(); ++i)
          s += (i ? ", " : "") + print(at.args[i], share);
        s += ")";
      }
      if (k != 1)
        s += "^" + std::to_string(k);
    }
    return s;
  };
  std::function<std::string(const Term&)> print_term;
  auto print_sum = [&](Id sid) {
    std::string s;
    for (const auto& t : sums_[sid].terms)
      s += (s.empty() ? "" : " + ") + print_term(t);
    return s.empty() ? std::string("0") : s;
  };
  print_term = [&](const Term& t) {
    std::string s = t.coef.to_string();
    if (t.mono != 0)
      s += "*" + print_mono(t.mono);
    if (t.exp != 0)
      s += "*exp(" + print_sum(t.exp) + ")";
    return s;
  };
  std::string s = print_term(f.scalar);
  for (const auto& [sid, k] : f.num)
    s += "*(" + print_sum(sid) + ")" + (k != 1 ? "^" + std::to_string(k) : "");
  if (!f.den.empty()) {
    s += " / (";
    for (size_t i = 0; i < f.den.size(); ++i) {
      s += (i ? "*" : "") + std::string("(") + print_sum(f.den[i].first) + ")" +
           (f.den[i].second != 1 ? "^" + std::to_string(f.den[i].second) : "");
    }
    s += ")";
  }
  return s;
}

} // namespace volta::canonical
