// Polynomial normal forms for the Z3 ground laws; why they are not rules/algebra's canonical
// forms: poly_forms.hpp and docs/architecture.md, "Two polynomial normal forms".
#include "engine/smt/poly_forms.hpp"

#include <algorithm>
#include <map>

#include "engine/symbolic/post_order.hpp"
#include "support/invariant.hpp"

namespace volta::smt {

using symbolic::ExprId;
using symbolic::Node;
using symbolic::Op;
using symbolic::Rational;
using Form = PolyForms::Form;
using Monomial = PolyForms::Monomial;

namespace {

constexpr uint64_t kModulus = PolyForms::kModulus;

uint64_t mul_mod(uint64_t a, uint64_t b) {
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  uint64_t r = static_cast<uint64_t>(p & kModulus) + static_cast<uint64_t>(p >> 61);
  if (r >= kModulus)
    r -= kModulus;
  return r;
}

uint64_t pow_mod(uint64_t base, uint64_t exponent) {
  uint64_t r = 1;
  for (; exponent; exponent >>= 1, base = mul_mod(base, base)) {
    if (exponent & 1)
      r = mul_mod(r, base);
  }
  return r;
}

uint64_t mix(uint64_t x) { // splitmix64
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

uint64_t monomial_hash(const Monomial& m) {
  uint64_t h = mix(m.size() + 0x51ed);
  for (ExprId a : m)
    h = mix(h ^ a);
  return h % kModulus;
}

bool polynomial(Op op) {
  switch (op) {
  case Op::Const:
  case Op::Add:
  case Op::Sub:
  case Op::Neg:
  case Op::Fma:
  case Op::Mul:
  case Op::Div:
    return true;
    // leaves
  case Op::Input:
  case Op::Param:
  case Op::Undef:
  case Op::PosInf:
  case Op::NegInf:
  case Op::RawBits:
  case Op::Ln2:
  // arithmetic over the reals
  case Op::Abs:
  case Op::Min:
  case Op::Max:
  case Op::Rcp:
  case Op::Sqrt:
  case Op::Rsqrt:
  case Op::Exp:
  case Op::Ex2:
  case Op::Lg2:
  case Op::Sin:
  case Op::Cos:
  case Op::Tanh:
  case Op::Narrow:
  // predicates and selects over symbolic values
  case Op::Cmp:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
  case Op::Select:
  // bit-level views of symbolic values
  case Op::Pack:
  case Op::Extract:
  case Op::BitOp:
  case Op::AtomicResult:
  // integer data
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg:
  case Op::ICmp:
  // conversions between the types, each its own operator
  case Op::IntToReal:
  case Op::RealToInt:
  case Op::RoundReal:
  case Op::FloatBits:
  case Op::BitsFloat:
  case Op::Fresh:
    return false;
  }
  symbolic::unknown_op(op); // a value outside ops.def
}

Form negate(Form f) {
  for (auto& [m, c] : f)
    c = -c;
  return f;
}

Form scale(Form f, const Rational& k) {
  if (k == 0)
    return {};
  for (auto& [m, c] : f)
    c *= k;
  return f;
}

// The normal form (poly_forms.hpp): monomials sorted and distinct, each one's atoms sorted, no
// zero coefficient. Equal values have equal forms only so; the laws compare forms with ==.
[[maybe_unused]] bool normalized(const Form& f) {
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i].second == 0 || !std::is_sorted(f[i].first.begin(), f[i].first.end()) ||
        (i > 0 && !(f[i - 1].first < f[i].first)))
      return false;
  }
  return true;
}

Monomial merge(const Monomial& a, const Monomial& b) {
  Monomial out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

} // namespace

Form PolyForms::add(const Form& a, const Form& b) {
  Form out;
  out.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) {
      out.push_back(a[i++]);
    } else if (i == a.size() || b[j].first < a[i].first) {
      out.push_back(b[j++]);
    } else {
      Rational c = a[i].second + b[j].second;
      if (c != 0)
        out.emplace_back(a[i].first, std::move(c));
      ++i;
      ++j;
    }
  }
  return out;
}

Form PolyForms::times_atom(const Form& f, ExprId atom) {
  Form out;
  out.reserve(f.size());
  for (const auto& [m, c] : f)
    out.emplace_back(merge(m, Monomial{atom}), c);
  std::sort(out.begin(), out.end()); // multiplying by one atom keeps monomials distinct
  return out;
}

std::optional<uint64_t> PolyForms::additive_hash(const Form& f) {
  uint64_t h = 0;
  for (const auto& [m, c] : f) {
    const uint64_t num = mpz_fdiv_ui(c.get_num_mpz_t(), kModulus); // in [0, p) also when < 0
    const uint64_t den = mpz_fdiv_ui(c.get_den_mpz_t(), kModulus);
    if (den == 0)
      return std::nullopt;
    const uint64_t coefficient = mul_mod(num, pow_mod(den, kModulus - 2));
    h = (h + mul_mod(coefficient, monomial_hash(m))) % kModulus;
  }
  return h;
}

Form PolyForms::atom(ExprId node) const {
  const ExprId a = store_.op(node) == Op::Ln2 ? kLn2Atom : node;
  return Form{{Monomial{a}, Rational(1)}};
}

const Form& PolyForms::form(ExprId root) {
  if (auto it = memo_.find(root); it != memo_.end())
    return it->second;
  // Through the polynomial operators only; anything else is an atom.
  symbolic::post_order(
      store_, root, [&](ExprId id) { return memo_.count(id) != 0; },
      [](ExprId, const Node& n) { return polynomial(n.op) && n.op != Op::Const; },
      [&](ExprId id) {
        Form f = compute(id);
        if (f.size() > max_terms_)
          f = atom(id);
        VOLTA_ASSERT(normalized(f),
                     "a polynomial form is sorted, merged, with no zero coefficient");
        memo_.emplace(id, std::move(f));
      });
  return memo_.at(root);
}

Form PolyForms::compute(ExprId id) {
  const Node& n = store_.node(id);
  auto kid = [&](ExprId k) -> const Form& { return memo_.at(k); };
  auto product = [&](const Form& a, const Form& b) -> Form {
    if (a.size() * b.size() > max_terms_ * 4)
      return atom(id);
    std::map<Monomial, Rational> terms;
    for (const auto& [ma, ca] : a) {
      for (const auto& [mb, cb] : b)
        terms[merge(ma, mb)] += ca * cb;
    }
    Form out;
    for (auto& [m, c] : terms) {
      if (c != 0)
        out.emplace_back(m, std::move(c));
    }
    return out;
  };
  switch (n.op) {
  case Op::Const: {
    const Rational& c = store_.rational(id);
    if (c == 0)
      return {};
    return Form{{Monomial{}, c}};
  }
  case Op::Add:
    return add(kid(n.a), kid(n.b));
  case Op::Sub:
    return add(kid(n.a), negate(kid(n.b)));
  case Op::Neg:
    return negate(kid(n.a));
  case Op::Mul:
    return product(kid(n.a), kid(n.b));
  case Op::Fma:
    return add(product(kid(n.a), kid(n.b)), kid(n.c));
  case Op::Div:
    // Only a division by a nonzero constant is polynomial.
    if (store_.op(n.b) == Op::Const && store_.rational(n.b) != 0) {
      return scale(kid(n.a), 1 / store_.rational(n.b));
    }
    return atom(id);
    // leaves
  case Op::Input:
  case Op::Param:
  case Op::Undef:
  case Op::PosInf:
  case Op::NegInf:
  case Op::RawBits:
  case Op::Ln2:
  // arithmetic over the reals
  case Op::Abs:
  case Op::Min:
  case Op::Max:
  case Op::Rcp:
  case Op::Sqrt:
  case Op::Rsqrt:
  case Op::Exp:
  case Op::Ex2:
  case Op::Lg2:
  case Op::Sin:
  case Op::Cos:
  case Op::Tanh:
  case Op::Narrow:
  // predicates and selects over symbolic values
  case Op::Cmp:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
  case Op::Select:
  // bit-level views of symbolic values
  case Op::Pack:
  case Op::Extract:
  case Op::BitOp:
  case Op::AtomicResult:
  // integer data
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg:
  case Op::ICmp:
  // conversions between the types, each its own operator
  case Op::IntToReal:
  case Op::RealToInt:
  case Op::RoundReal:
  case Op::FloatBits:
  case Op::BitsFloat:
  case Op::Fresh:
    return atom(id);
  }
  symbolic::unknown_op(n.op); // a value outside ops.def
}

} // namespace volta::smt
