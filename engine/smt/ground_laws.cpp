#include "engine/smt/ground_laws.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <unordered_map>
#include <vector>

#include "engine/smt/poly_forms.hpp"
#include "engine/symbolic/rational.hpp"

namespace volta::smt {

namespace {
// The query's deadline passed or its entry was cancelled.
bool stopped(const LawOptions& options) {
  return (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) ||
         std::chrono::steady_clock::now() >= options.deadline;
}
} // namespace

z3::expr_vector ground_laws(z3::context& ctx, const symbolic::ExprStore& store,
                            const Translation& t, const LawOptions& options, LawStats* stats) {
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
    PolyForms poly(store);
    std::vector<const FnUse*> reps;
    std::vector<PolyForms::Form> forms;
    std::vector<std::optional<uint64_t>> hashes;
    std::unordered_multimap<uint64_t, size_t> by_hash; // additive hash -> representatives
    auto find = [&](const PolyForms::Form& f, std::optional<uint64_t> h) -> std::optional<size_t> {
      if (!h)
        return std::nullopt;
      for (auto [it, end] = by_hash.equal_range(*h); it != end; ++it) {
        if (forms[it->second] == f)
          return it->second;
      }
      return std::nullopt;
    };
    for (const FnUse* u : exps) {
      if (stopped(options))
        break; // the facts so far are true; the missing ones only make Z3 weaker
      const symbolic::Node& n = store.node(u->node);
      const PolyForms::Form& x = poly.form(n.a);
      PolyForms::Form f =
          n.op == symbolic::Op::Ex2 ? PolyForms::times_atom(x, PolyForms::kLn2Atom) : x;
      if (f.empty()) {
        facts.push_back(u->app == one);
        ++st.exp_zero;
        continue;
      }
      const std::optional<uint64_t> h = PolyForms::additive_hash(f);
      if (auto same = find(f, h)) {
        facts.push_back(u->app == reps[*same]->app);
        ++st.exp_same_arg;
        continue;
      }
      if (h)
        by_hash.emplace(*h, reps.size());
      reps.push_back(u);
      forms.push_back(std::move(f));
      hashes.push_back(h);
    }

    // ---- exp(a)·exp(b) = exp(a+b) where a+b is (the form of) an occurring argument, or 0.
    //      The additive hash makes each pair one table lookup; a hit is confirmed on the forms.
    size_t checks = 0;
    for (size_t i = 0; i < reps.size() && st.exp_products < options.max_pair_facts; ++i) {
      if (!hashes[i])
        continue;
      for (size_t j = i; j < reps.size() && st.exp_products < options.max_pair_facts; ++j) {
        if (checks++ >= options.max_pair_checks || ((checks & 0x3FF) == 0 && stopped(options))) {
          st.pair_checks_capped = true;
          i = reps.size();
          break;
        }
        if (!hashes[j])
          continue;
        const uint64_t h = (*hashes[i] + *hashes[j]) % PolyForms::kModulus;
        if (h == 0 || by_hash.count(h)) {
          const PolyForms::Form s = PolyForms::add(forms[i], forms[j]);
          if (s.empty()) {
            facts.push_back(reps[i]->app * reps[j]->app == one);
            ++st.exp_products;
          } else if (auto k = find(s, h)) {
            facts.push_back(reps[i]->app * reps[j]->app == reps[*k]->app);
            ++st.exp_products;
          }
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
