#include "rules/appliers.hpp"

#include <unordered_map>
#include <vector>

#include "rules/algebra/canonical_analysis.hpp"
#include "rules/algebra/node_forms.hpp"

namespace volta::rules {

using canonical::Form;
using egraph::EGraph;
using egraph::Id;

namespace {

constexpr uint64_t kLn2Key = uint64_t{1} << 62; // as in node_forms.cpp

class FormBuilder {
public:
  FormBuilder(EGraph& g, const algebra::MlLanguage& ml, canonical::CanonicalForms& forms)
      : g_(g), ml_(ml), forms_(forms) {}

  // A canonical form (numerator one monic sum, no denominator) as the expanded sum of its
  // terms, the scalar distributed over the sum so that the monic normalization's negative
  // powers cancel: (a+b)(a-b) is built as a·a + (-1)·b·b, not a²·(1 - b²·a⁻²), which would be
  // undefined at a = 0. nullopt for a denominator, a remaining negative power, or an atom
  // without an operator.
  //
  // Forms and atoms are shared (a running maximum's atoms nest, each argument reusing the one
  // below): each is built once per builder, so the work is linear in the DAG, not in its tree.
  // The depth cap bounds the recursion; a form first met past it stays unbuilt (nullopt: the
  // applier gives up, which is always allowed).
  std::optional<Id> form(canonical::Id id, int depth = 0) {
    if (auto it = built_forms_.find(id); it != built_forms_.end())
      return it->second;
    const std::optional<Id> out = build_form(id, depth);
    built_forms_.emplace(id, out);
    return out;
  }

private:
  std::optional<Id> build_form(canonical::Id id, int depth) {
    if (depth > 200)
      return std::nullopt;
    const Form f = forms_.form(id); // a copy: building may intern new forms
    switch (f.kind) {
    case Form::Kind::PosInf:
      return g_.add_leaf(ml_.pos_inf, 0);
    case Form::Kind::NegInf:
      return g_.add_leaf(ml_.neg_inf, 0);
    case Form::Kind::Undefined:
      return std::nullopt;
    case Form::Kind::Finite:
      break;
    }
    if (f.scalar.coef.is_zero())
      return g_.add_constant(0);
    if (!f.den.empty() || f.num.size() > 1 || (f.num.size() == 1 && f.num[0].second != 1))
      return std::nullopt;
    std::vector<canonical::Term> terms;
    if (f.num.empty()) {
      terms.push_back(f.scalar);
    } else {
      for (const auto& t : forms_.sum(f.num[0].first).terms)
        terms.push_back(times(f.scalar, t));
    }
    std::vector<Id> parts;
    for (const auto& t : terms) {
      std::vector<Id> num, den;
      if (!term(t, num, den, depth) || !den.empty())
        return std::nullopt;
      parts.push_back(product(num));
    }
    if (parts.size() == 1)
      return parts[0];
    return g_.add(ml_.add, parts);
  }

  // The product of two terms, a term (through the forms, which know how to multiply them).
  canonical::Term times(const canonical::Term& a, const canonical::Term& b) {
    return forms_.form(forms_.mul(forms_.form_of_term(a), forms_.form_of_term(b))).scalar;
  }

  Id product(std::vector<Id>& factors) {
    if (factors.empty())
      return g_.add_constant(1);
    if (factors.size() == 1)
      return factors[0];
    return g_.add(ml_.mul, factors);
  }

  // c · monomial · exp(p) as factors of a numerator and a denominator.
  bool term(const canonical::Term& t, std::vector<Id>& num, std::vector<Id>& den, int depth) {
    if (!t.coef.is_one())
      num.push_back(g_.add_constant(t.coef.to_mpq()));
    const auto factors = forms_.monomial(t.mono).factors; // a copy: building interns forms
    for (const auto& [atom_id, k] : factors) {
      auto a = atom(atom_id, depth);
      if (!a)
        return false;
      for (int32_t i = 0; i < (k < 0 ? -k : k); ++i)
        (k < 0 ? den : num).push_back(*a);
    }
    if (t.exp != 0) {
      auto p = sum(t.exp, depth);
      if (!p)
        return false;
      num.push_back(g_.add(ml_.exp, {*p}));
    }
    return true;
  }

  std::optional<Id> sum(canonical::Id sum_id, int depth) {
    const auto terms = forms_.sum(sum_id).terms; // a copy, as above
    std::vector<Id> parts;
    for (const auto& t : terms) {
      std::vector<Id> num, den;
      if (!term(t, num, den, depth + 1))
        return std::nullopt;
      const Id top = product(num);
      parts.push_back(den.empty() ? top : g_.add(ml_.div, {top, product(den)}));
    }
    if (parts.empty())
      return g_.add_constant(0);
    if (parts.size() == 1)
      return parts[0];
    return g_.add(ml_.add, parts);
  }

  std::optional<Id> atom(canonical::Id atom_id, int depth) {
    if (auto it = built_atoms_.find(atom_id); it != built_atoms_.end())
      return it->second;
    const std::optional<Id> out = build_atom(atom_id, depth);
    built_atoms_.emplace(atom_id, out);
    return out;
  }

  std::optional<Id> build_atom(canonical::Id atom_id, int depth) {
    const canonical::Atom a = forms_.atom(atom_id);
    if (a.kind == canonical::Atom::Kind::Symbol) {
      if (a.key == kLn2Key)
        return g_.add_leaf(ml_.ln2, 0);
      return g_.add_leaf(ml_.sym, a.key);
    }
    std::vector<Id> args;
    for (canonical::Id arg : a.args) {
      auto x = form(arg, depth + 1);
      if (!x)
        return std::nullopt;
      args.push_back(*x);
    }
    auto unary = [&](egraph::OpId op) -> std::optional<Id> {
      if (args.size() != 1)
        return std::nullopt;
      return g_.add(op, {args[0]});
    };
    auto against_zero = [&](egraph::OpId op) -> std::optional<Id> {
      if (args.size() != 1)
        return std::nullopt;
      return g_.add(op, {args[0], g_.add_constant(0)});
    };
    if (a.name == "max" || a.name == "min")
      return args.size() == 1 ? args[0] : g_.add(a.name == "max" ? ml_.max : ml_.min, args);
    if (a.name == "select")
      return args.size() == 3 ? std::optional<Id>(g_.add(ml_.select, args)) : std::nullopt;
    // The functions that rules/algebra/node_forms.cpp makes atoms of, named by their ML word.
    for (egraph::OpId f : {ml_.sqrt, ml_.log2, ml_.sin, ml_.cos, ml_.tanh, ml_.abs}) {
      if (a.name == ml_.lang.op(f).name)
        return unary(f);
    }
    if (a.name == "pos")
      return against_zero(ml_.gt);
    if (a.name == "nonneg")
      return against_zero(ml_.ge);
    if (a.name == "zero")
      return against_zero(ml_.eq);
    if (a.name == "nonzero")
      return against_zero(ml_.ne);
    return std::nullopt;
  }

  EGraph& g_;
  const algebra::MlLanguage& ml_;
  canonical::CanonicalForms& forms_;
  std::unordered_map<canonical::Id, std::optional<Id>> built_forms_, built_atoms_;
};

} // namespace

std::optional<Id> add_form_term(EGraph& g, const algebra::MlLanguage& ml,
                                canonical::CanonicalForms& forms, canonical::Id form) {
  return FormBuilder(g, ml, forms).form(form);
}

egraph::ApplierRegistry ml_appliers(const algebra::MlLanguage& ml) {
  egraph::ApplierRegistry r;
  r.add_applier(
      "canonical-term",
      [&ml](EGraph& g, Id root, const egraph::Subst&) -> std::optional<Id> {
        // Only for values defined everywhere: the built term is, so the two sides keep one
        // domain (a quotient that cancels would not).
        auto* a = g.find_analysis<algebra::CanonicalFormAnalysis>();
        if (a == nullptr || !a->holds(algebra::FormPredicate::Total, g, root))
          return std::nullopt;
        try {
          const canonical::Id c = a->forms().canonical(a->form(g, root));
          return add_form_term(g, ml, a->forms(), c);
        } catch (const canonical::BudgetExceeded&) {
          return std::nullopt;
        }
      },
      canonical_form_verifier(ml));
  return r;
}

egraph::StepVerifier canonical_form_verifier(const algebra::MlLanguage& ml) {
  return [&ml](const egraph::Language& lang, const egraph::TreeTerm& from,
               const egraph::TreeTerm& to) {
    canonical::CanonicalForms forms;
    algebra::NodeForms nodes(ml, lang, forms);
    try {
      const canonical::Id a = nodes.form_of_tree(from), b = nodes.form_of_tree(to);
      if (forms.is_undefined(a) || forms.is_undefined(b))
        return false;
      return forms.equal(a, b) || forms.equal_by_cross_multiplication(a, b);
    } catch (const canonical::BudgetExceeded&) {
      return false;
    }
  };
}

} // namespace volta::rules
