// Canonical forms of the exp-polynomial class (docs/architecture.md, "Proving"): the decision
// procedure behind the prover's completeness on sums of polynomial × exp(polynomial) and their
// quotients.
//
// A value is kept as   scalar × Π num_i^k_i / Π den_j^k_j   where
//   * scalar = c · m · exp(p): an exact rational c, a Laurent monomial m over atoms, and an
//     exponent p that is a polynomial (exponentials fused: e^a·e^b = e^{a+b});
//   * num_i, den_j are sums of at least two terms, each made *monic*: divided by its leading
//     term (the least term in an order invariant under multiplication by a term), so that a sum
//     and any multiple of it give the same factor;
//   * equal factors in numerator and denominator cancel (online-softmax rescaling:
//     l·e^{m_old-m_new}·(N/l) = e^{m_old-m_new}·N).
// Atoms are input symbols and applications of functions outside the class (max, min, sqrt,
// tanh, comparisons, ...) to canonical arguments: uninterpreted, hence sound but not complete.
// Two values with the same *canonical* form (numerator expanded into one monic sum) are equal
// over the reals. Forms are interned: equality is id equality.
//
// ±∞ are kept as values of their own (running maxima start at -inf); inf - inf, 0·inf and x/0
// give Undefined with a reason, never a folded number.
//
// engine/smt/poly_forms is a second, smaller polynomial normal form, on purpose (docs/
// architecture.md, "Two polynomial normal forms"): the Z3 ground laws need forms that hold under
// Z3's total division (no cancellation of a quotient's factors, exp an atom) and an additive
// hash; these forms cancel, fuse exponentials and own ±inf and Undefined.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "egraph/interner.hpp"
#include "rules/algebra/canonical/coef.hpp"

namespace volta::canonical {

using Id = uint32_t;

// Thrown when an operation would exceed the term budget (a product of large sums).
struct BudgetExceeded : std::runtime_error {
  BudgetExceeded() : std::runtime_error(kMessage) {}
  static constexpr const char* kMessage = "canonical forms exceeded their term budget";

protected:
  explicit BudgetExceeded(const char* message) : std::runtime_error(message) {}
};

// Thrown when the cancel flag (set_cancel) is seen: the entry's time limit or a signal. A kind of
// BudgetExceeded, so that every caller that gives up on a form over budget gives up on this one
// too (nothing is concluded from a form not built); what() says which it was.
struct Cancelled : BudgetExceeded {
  Cancelled() : BudgetExceeded(kMessage) {}
  static constexpr const char* kMessage = "cancelled";
};

struct Atom {
  enum class Kind : uint8_t { Symbol, Apply };
  Kind kind = Kind::Symbol;
  uint64_t key = 0;     // Symbol: the caller's identity for the leaf
  std::string name;     // Symbol: printed name; Apply: function name
  std::vector<Id> args; // Apply: canonical forms of the arguments
  // A real number > 0 whatever the inputs: a positive constant symbol (ln 2) or an exponential
  // ("exp" of a non-polynomial argument). Lets ±inf times such a factor stay ±inf. Part of the
  // atom's identity (a symbol key is declared positive or not, never both).
  bool positive = false;
};

// c · m · exp(p)
struct Term {
  Coef coef;
  Id mono = 0; // 0: the empty monomial (1)
  Id exp = 0;  // a Sum without exponentials; 0: the zero polynomial (no exponential)
};

struct Form {
  enum class Kind : uint8_t { Finite, PosInf, NegInf, Undefined };
  Kind kind = Kind::Finite;
  Term scalar;                             // coef 0: the value zero (no factors)
  std::vector<std::pair<Id, int32_t>> num; // monic sums and multiplicities, by id
  std::vector<std::pair<Id, int32_t>> den;
  std::string reason; // Undefined: why

  bool is_zero() const { return kind == Kind::Finite && scalar.coef.is_zero(); }
};

class CanonicalForms {
public:
  CanonicalForms();

  // ---- building
  Id constant(const Coef& c);
  Id symbol(uint64_t key, std::string name);
  // A symbol that stands for a positive real constant (ln 2): -inf · ln2 is -inf, not undefined.
  Id positive_symbol(uint64_t key, std::string name);
  Id pos_inf();
  Id neg_inf();
  Id undefined(std::string reason);

  Id add(Id a, Id b);
  Id add_all(std::span<const Id> parts);
  Id neg(Id a);
  Id sub(Id a, Id b) { return add(a, neg(b)); }
  Id mul(Id a, Id b);
  Id div(Id a, Id b);
  Id exp(Id a);
  Id max(std::span<const Id> args);
  Id min(std::span<const Id> args);
  // An uninterpreted function of canonical arguments ("sqrt", "tanh", "abs", ...).
  Id apply(const std::string& fn, std::span<const Id> args);
  // Comparisons and selection over data: a 0/1 atom, and cond ? a : b (max/min recognized).
  enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };
  Id compare(Cmp k, Id a, Id b);
  Id select(Id cond, Id if_true, Id if_false);

  // ---- queries
  // The canonical form: numerator expanded into one monic sum. Equal values of the class have
  // the same canonical id.
  Id canonical(Id a);
  bool equal(Id a, Id b) { return canonical(a) == canonical(b); }
  // A second, costlier check for quotients whose denominators were factored differently:
  // n_a · d_b == n_b · d_a after expansion (within the term budget).
  bool equal_by_cross_multiplication(Id a, Id b);

  const Form& form(Id id) const { return forms_[id]; }
  // The form of one term c · monomial · exp(p), and of one atom.
  Id form_of_term(const Term& t);
  Id form_of_atom(Id atom);
  bool is_undefined(Id id) const { return forms_[id].kind == Form::Kind::Undefined; }
  // The undefined form of a value whose form would exceed the term budget (what callers that
  // catch BudgetExceeded intern for it), and whether a form is that one.
  Id over_budget() { return undefined(BudgetExceeded::kMessage); }
  bool is_over_budget(Id id) const { return id == over_budget_; }
  // If the form is a rational constant, its value.
  bool constant_value(Id id, Coef& out) const;
  // Readable text of a form. Atoms share their arguments (a running maximum nests n levels deep,
  // each naming the one below twice), so an atom's arguments get half of the remaining budget
  // of about `max_chars` characters between them, "..." when it runs out: the work is bounded
  // by max_chars, not by the tree.
  std::string print(Id id, size_t max_chars = 4096) const;

  size_t form_count() const { return forms_.size(); }
  size_t sum_count() const { return sums_.size(); }
  void set_term_budget(size_t terms) { term_budget_ = terms; }
  // Starts a new budget: the prover gives each output element the whole budget of new terms
  // (the forms earlier elements interned stay shared), so that one large element cannot starve
  // every element after it.
  void reset_term_count() { terms_used_ = 0; }
  // Terms charged since the last reset (what the budget is measured in).
  size_t terms_used() const { return terms_used_; }
  // Read at every term charged against the budget (every product, every sum built): a set flag
  // throws Cancelled, so that no single form outlasts the entry's time limit by more than the
  // work of one multiplication of two sums.
  void set_cancel(const std::atomic<bool>* cancel) { cancel_ = cancel; }

  // ---- internal representation (exposed for evaluation and tests)
  struct Monomial {
    std::vector<std::pair<Id, int32_t>> factors; // atom ids, nonzero powers, by atom id
  };
  struct Sum {
    std::vector<Term> terms; // by (mono, exp); no zero coefficient
  };
  const Atom& atom(Id id) const { return atoms_[id]; }
  const Monomial& monomial(Id id) const { return monomials_[id]; }
  const Sum& sum(Id id) const { return sums_[id]; }

private:
  // interning
  Id intern_form(Form f);
  Id intern_atom(Atom a);
  Id intern_monomial(Monomial m);
  Id intern_sum(Sum s);

  // terms
  Id mono_mul(Id a, Id b);
  Id mono_inverse(Id a);
  Id poly_add(Id a, Id b);
  Id poly_neg(Id a);
  Term term_mul(const Term& a, const Term& b);
  Term term_inverse(const Term& a);
  int compare_poly(Id a, Id b) const; // value order, invariant under adding a polynomial
  int compare_mono(Id a, Id b) const; // invariant under multiplying by a monomial
  int compare_terms(const Term& a, const Term& b) const;

  // sums
  Sum make_sum(std::vector<Term> terms); // sorts and merges
  Sum sum_mul(Sum a, Sum b);
  Sum sum_scale(const Sum& a, Term t);
  Sum expand_numerator(const Form& f);
  Form from_sum(Sum s); // scalar × monic factor
  Id form_from_sum(Sum s) { return intern_form(from_sum(std::move(s))); }
  Id multiply_factors(const Form& a, const Form& b);
  bool is_positive_constant_like(const Form& f) const;
  bool is_positive_monomial(Id mono) const;
  void charge(size_t terms);

  // Hash-consed (intern_*): equal normalized values share one id. std::vector stores: a
  // reference into one dies when it grows (copy a value before interning another).
  egraph::InternTable<Form> forms_;
  egraph::InternTable<Atom> atoms_;
  egraph::InternTable<Monomial> monomials_;
  egraph::InternTable<Sum> sums_;
  std::unordered_map<Id, Id> canonical_cache_;
  Id zero_ = 0, one_ = 0, pos_inf_ = 0, neg_inf_ = 0, over_budget_ = 0;
  size_t term_budget_ = 50'000'000;
  size_t terms_used_ = 0;
  const std::atomic<bool>* cancel_ = nullptr;
};

} // namespace volta::canonical
