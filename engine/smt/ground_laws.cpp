#include "engine/smt/ground_laws.hpp"

#include "engine/symbolic/rational.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace volta::smt {

using symbolic::Rational;

namespace {

// A polynomial as sorted (monomial AST id, nonzero coefficient) pairs. Two exp arguments with
// the same form are equal as real functions, whatever Z3's total division does at 0, because
// the form comes from Z3's own equivalence-preserving simplifier.
using Form = std::vector<std::pair<unsigned, Rational>>;

struct FormHash {
  size_t operator()(const Form& f) const {
    uint64_t h = f.size();
    for (const auto& [id, c] : f)
      h = (h * 1000003u) ^ (uint64_t{id} * 0x9E3779B97F4A7C15ull) ^ symbolic::hash_rational(c);
    return h;
  }
};

Form add(const Form& a, const Form& b) {
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

// Sum-of-monomials forms through Z3's simplifier (`som`): it distributes products, collects like
// terms and orders factors, so a+b and b+a, or (x-m)+(m-y) and x-y, get the same form.
class Normalizer {
public:
  explicit Normalizer(z3::context& ctx) : ctx_(ctx), som_(ctx), keep_(ctx) {
    som_.set("som", true);
    keep_.push_back(ctx.real_val(1));
    one_ = id(keep_.back());
  }

  Form form(const z3::expr& e) {
    const z3::expr s = e.simplify(som_);
    keep_.push_back(s);
    std::vector<std::pair<unsigned, Rational>> terms;
    if (s.is_app() && s.decl().decl_kind() == Z3_OP_ADD) {
      for (unsigned i = 0; i < s.num_args(); ++i)
        monomial(s.arg(i), Rational(1), terms);
    } else {
      monomial(s, Rational(1), terms);
    }
    std::sort(terms.begin(), terms.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    Form out;
    for (auto& [m, c] : terms) {
      if (!out.empty() && out.back().first == m) {
        out.back().second += c;
        if (out.back().second == 0)
          out.pop_back();
      } else if (c != 0) {
        out.emplace_back(m, std::move(c));
      }
    }
    return out;
  }

private:
  unsigned id(const z3::expr& e) const { return Z3_get_ast_id(ctx_, e); }

  Rational numeral(const z3::expr& e) const {
    Rational q(Z3_get_numeral_string(ctx_, e));
    q.canonicalize();
    return q;
  }

  void monomial(const z3::expr& m, Rational c, std::vector<std::pair<unsigned, Rational>>& out) {
    if (m.is_numeral()) {
      out.emplace_back(one_, c * numeral(m));
      return;
    }
    if (m.is_app() && m.decl().decl_kind() == Z3_OP_UMINUS) {
      monomial(m.arg(0), -c, out);
      return;
    }
    if (m.is_app() && m.decl().decl_kind() == Z3_OP_MUL && m.num_args() >= 2 &&
        m.arg(0).is_numeral()) {
      c *= numeral(m.arg(0));
      if (m.num_args() == 2) {
        keep_.push_back(m.arg(1));
        out.emplace_back(id(m.arg(1)), std::move(c));
        return;
      }
      std::vector<Z3_ast> rest;
      for (unsigned i = 1; i < m.num_args(); ++i)
        rest.push_back(m.arg(i));
      // Z3 hash-conses terms, so the same factors in the same order give the same id; `keep_`
      // holds every term whose id is used so that ids are not recycled meanwhile.
      z3::expr product(ctx_, Z3_mk_mul(ctx_, static_cast<unsigned>(rest.size()), rest.data()));
      ctx_.check_error();
      keep_.push_back(product);
      out.emplace_back(id(product), std::move(c));
      return;
    }
    keep_.push_back(m);
    out.emplace_back(id(m), std::move(c));
  }

  z3::context& ctx_;
  z3::params som_;
  z3::expr_vector keep_;
  unsigned one_ = 0;
};

} // namespace

z3::expr_vector ground_laws(z3::context& ctx, const Translation& t, const LawOptions& options,
                            LawStats* stats) {
  LawStats local;
  LawStats& st = stats ? *stats : local;
  st = LawStats{};
  z3::expr_vector facts(ctx);
  const z3::expr zero = ctx.real_val(0), one = ctx.real_val(1);

  // ---- exp: positivity and the tangent line at 0, for every exp term
  std::vector<const FnUse*> exps;
  for (const FnUse& u : t.uses) {
    if (u.fn != Fn::Exp)
      continue;
    exps.push_back(&u);
    facts.push_back(u.app > zero);
    facts.push_back(u.app >= one + u.arg);
    st.exp_positive += 2;
  }

  if (!exps.empty()) {
    // exp(0) = 1, stated on the term exp(0) so that congruence applies it to any argument that
    // is 0 in a model.
    const z3::func_decl exp_fn = exps.front()->app.decl();
    facts.push_back(exp_fn(zero) == one);
    ++st.exp_zero;

    // ---- arguments equal up to normalization share one representative
    Normalizer normalizer(ctx);
    std::unordered_map<Form, size_t, FormHash> index; // form -> representative
    std::vector<const FnUse*> reps;
    std::vector<Form> forms;
    for (const FnUse* u : exps) {
      Form f = normalizer.form(u->arg);
      if (f.empty()) {
        facts.push_back(u->app == one);
        ++st.exp_zero;
        continue;
      }
      auto [it, fresh] = index.try_emplace(f, reps.size());
      if (!fresh) {
        facts.push_back(u->app == reps[it->second]->app);
        ++st.exp_same_arg;
        continue;
      }
      reps.push_back(u);
      forms.push_back(std::move(f));
    }

    // ---- exp(a)·exp(b) = exp(a+b) where a+b is (the form of) an occurring argument, or 0
    size_t checks = 0;
    for (size_t i = 0; i < reps.size() && st.exp_products < options.max_pair_facts; ++i) {
      for (size_t j = i; j < reps.size() && st.exp_products < options.max_pair_facts; ++j) {
        if (checks++ >= options.max_pair_checks) {
          st.pair_checks_capped = true;
          i = reps.size();
          break;
        }
        const Form s = add(forms[i], forms[j]);
        if (s.empty()) {
          facts.push_back(reps[i]->app * reps[j]->app == one);
          ++st.exp_products;
        } else if (auto it = index.find(s); it != index.end()) {
          facts.push_back(reps[i]->app * reps[j]->app == reps[it->second]->app);
          ++st.exp_products;
        }
      }
    }

    // ---- strict monotonicity for the first pairs
    size_t pairs = 0;
    for (size_t i = 0; i < reps.size() && pairs < options.max_monotonic_pairs; ++i) {
      for (size_t j = i + 1; j < reps.size() && pairs < options.max_monotonic_pairs; ++j, ++pairs) {
        const FnUse &a = *reps[i], &b = *reps[j];
        facts.push_back(z3::implies(a.arg < b.arg, a.app < b.app));
        facts.push_back(z3::implies(b.arg < a.arg, b.app < a.app));
        st.exp_monotonic += 2;
      }
    }
  }

  // ---- sqrt on its domain; bounded functions everywhere
  const z3::expr minus_one = ctx.real_val(-1);
  for (const FnUse& u : t.uses) {
    switch (u.fn) {
    case Fn::Sqrt:
      facts.push_back(z3::implies(u.arg >= zero, u.app >= zero && u.app * u.app == u.arg));
      ++st.sqrt_facts;
      break;
    case Fn::Tanh:
      facts.push_back(u.app > minus_one && u.app < one);
      ++st.bounded;
      break;
    case Fn::Sin:
    case Fn::Cos:
      facts.push_back(u.app >= minus_one && u.app <= one);
      ++st.bounded;
      break;
    default:
      break;
    }
  }

  // ln 2 = 0.693147...: bounds keep models from choosing ln2 <= 0, where 2^x would decrease.
  if (t.ln2) {
    facts.push_back(*t.ln2 > ctx.real_val("6931/10000") && *t.ln2 < ctx.real_val("6932/10000"));
  }
  return facts;
}

} // namespace volta::smt
