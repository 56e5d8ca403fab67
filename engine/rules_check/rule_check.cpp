#include "engine/rules_check/rule_check.hpp"

#include <fmt/format.h>
#include <random>
#include <set>

#include "egraph/ematch.hpp"
#include "egraph/extract.hpp"
#include "engine/rules_check/random_points.hpp"
#include "engine/rules_check/rule_instance.hpp"
#include "engine/rules_check/rule_proof.hpp"
#include "engine/rules_check/trusted_axioms.hpp"
#include "rules/algebra/canonical_analysis.hpp"

namespace volta::rules_check {

using egraph::TreeTerm;
using Status = RuleCheckResult::Status;
using Proof = RuleCheckResult::Proof;

const char* to_string(Status s) {
  switch (s) {
  case Status::Proved:
    return "proved";
  case Status::Unsound:
    return "UNSOUND";
  case Status::Unproved:
    return "UNPROVED";
  }
  return "?";
}

const char* to_string(Proof p) {
  switch (p) {
  case Proof::None:
    return "none";
  case Proof::Z3:
    return "z3";
  case Proof::CanonicalForms:
    return "canonical forms";
  case Proof::Applier:
    return "applier";
  }
  return "?";
}

bool trusted_applier(const std::string& name) {
  // canonical-term merges a total class with the term of its own canonical form: what the
  // canonical-form analysis, which every proof trusts, already asserts.
  return name == "canonical-term";
}

namespace {

std::string join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const auto& p : parts)
    out += (out.empty() ? "" : separator) + p;
  return out;
}

class RuleChecker {
public:
  RuleChecker(const rules::RuleLibrary& lib, const RuleCheckOptions& options)
      : lib_(lib), options_(options), ml_(lib.ml()), rng_(options.seed) {}

  RuleCheckResult check(size_t index) {
    const egraph::Rewrite& rule = lib_.rewrites()[index];
    const rules::RuleSpec& spec = lib_.spec(index);
    RuleCheckResult out;
    out.rule = rule.name;
    out.where = spec.where.to_string();
    const auto& vars = rule.lhs.vars();
    bool has_rest = false;
    std::vector<bool> plain(vars.size(), false), partial = plain;
    for (uint32_t v = 0; v < vars.size(); ++v) {
      has_rest |= vars.var(v).rest;
      partial[v] = !total_by_condition(spec, vars.var(v).name);
    }

    // ---- 1. random points, for a counterexample
    std::string not_evaluated;
    for (size_t size : has_rest ? std::vector<size_t>{1, 2, 3} : std::vector<size_t>{1}) {
      for (const auto* shape : {&plain, &partial}) {
        if (shape == &partial && partial == plain)
          continue;
        Instantiator inst(ml_, rule.lhs);
        Instance in = inst.make(size, *shape);
        if (!right_side(rule, inst, in)) {
          // An applier may decline for partial values (canonical-term does); it must work on
          // plain symbols.
          if (shape == &partial)
            continue;
          out.status = Status::Unproved;
          out.detail = fmt::format("the applier '{}' produced nothing on the instance {}",
                                   rule.applier_name, egraph::to_sexpr(in.lhs, ml_.lang));
          return out;
        }
        PointSearch search;
        search.points = options_.points;
        search.rng = &rng_;
        try {
          if (auto bad = find_counterexample(ml_, in, conditions_of(spec, rule.lhs, in, ml_.lang),
                                             search)) {
            out.status = Status::Unsound;
            out.detail = *bad;
            return out;
          }
        } catch (const NotConvertible& e) {
          not_evaluated = e.what();
        }
        out.points += search.agreeing;
      }
    }

    // ---- 2. a proof
    if (!rule.rhs) {
      if (trusted_applier(rule.applier_name)) {
        out.status = Status::Proved;
        out.proof = Proof::Applier;
        out.detail = fmt::format("by construction: the applier '{}' builds the canonical form of "
                                 "the matched value; {} points agree",
                                 rule.applier_name, out.points);
      } else {
        out.detail = fmt::format("the applier '{}' has no proof", rule.applier_name);
      }
      return out;
    }
    for (const auto& c : spec.conditions) {
      const auto v = vars.find(c.var);
      if (v && vars.var(*v).rest && !condition_lifts(c.predicate, ml_, vars.var(*v).rest_op)) {
        out.detail =
            fmt::format("the condition ({} ?{}...) on each element does not make "
                        "the {} of the elements {} (prove the rule for a plain variable instead)",
                        algebra::name_of(c.predicate), c.var,
                        ml_.lang.op(vars.var(*v).rest_op).name, algebra::name_of(c.predicate));
        return out;
      }
    }
    std::vector<std::string> why_not;
    try {
      if (options_.prover) {
        Instantiator inst(ml_, rule.lhs);
        Instance in = inst.make(1, partial);
        right_side(rule, inst, in);
        std::set<std::string> used;
        const TreeTerm lhs = apply_trusted_axioms(in.lhs, ml_, &used);
        const TreeTerm rhs = apply_trusted_axioms(in.rhs, ml_, &used);
        const InstanceProof p = prove_by_z3(
            ml_, lhs, rhs, conditions_of(spec, rule.lhs, in, ml_.lang), options_.prover, rule.name);
        if (p.kind == InstanceProof::Kind::Refuted) {
          out.status = Status::Unsound;
          out.detail = p.detail;
          return out;
        }
        if (p.kind == InstanceProof::Kind::Proved)
          return proved(out, Proof::Z3, used, has_rest, partial != plain);
        why_not.push_back("Z3: " + p.detail);
      }
      Instantiator inst(ml_, rule.lhs);
      Instance in = inst.make(1, plain);
      right_side(rule, inst, in);
      std::set<std::string> may_be_undefined;
      for (uint32_t v = 0; v < vars.size(); ++v) {
        if (partial[v]) {
          const TreeTerm& t = vars.var(v).rest ? in.rests[v][0] : in.vars[v];
          may_be_undefined.insert(ml_.lang.symbol_name(t.payload));
        }
      }
      std::set<std::string> used;
      const TreeTerm lhs = apply_trusted_axioms(in.lhs, ml_, &used);
      const TreeTerm rhs = apply_trusted_axioms(in.rhs, ml_, &used);
      const InstanceProof p = prove_by_forms(ml_, lhs, rhs, may_be_undefined);
      if (p.kind == InstanceProof::Kind::Proved)
        return proved(out, Proof::CanonicalForms, used, has_rest, partial != plain);
      why_not.push_back("canonical forms: " + p.detail);
    } catch (const NotConvertible& e) {
      why_not.push_back(e.what());
    }
    if (!options_.prover)
      why_not.push_back("Z3 was not used (--no-z3)");
    out.detail = fmt::format("{}; {} random points agree{}", join(why_not, "; "), out.points,
                             not_evaluated.empty() ? "" : " (" + not_evaluated + ")");
    return out;
  }

private:
  RuleCheckResult& proved(RuleCheckResult& out, Proof how, const std::set<std::string>& axioms,
                          bool has_rest, bool quotients) {
    out.status = Status::Proved;
    out.proof = how;
    out.axioms.assign(axioms.begin(), axioms.end());
    std::string scope;
    if (has_rest)
      scope += ", rest variables of any length";
    if (quotients)
      scope += ", variables that may be undefined";
    const std::string with =
        out.axioms.empty() ? "" : ", with the trusted axioms " + join(out.axioms, ", ");
    out.detail = how == Proof::Z3
                     ? fmt::format("by Z3 over the reals, domains included{}{}; {} points agree",
                                   scope, with, out.points)
                     : fmt::format("by the canonical forms, both sides strict and total{}{}; {} "
                                   "points agree",
                                   scope, with, out.points);
    return out;
  }

  // The instance's right-hand side: the rule's pattern, or what its applier builds; false when
  // the applier declines.
  bool right_side(const egraph::Rewrite& rule, Instantiator& inst, Instance& in) {
    if (rule.rhs) {
      in.rhs = inst.build(*rule.rhs, rule.rhs->root(), in);
      return true;
    }
    return apply_applier(rule, in);
  }

  // Runs a C++ applier on the instance in a small e-graph and takes what it produced.
  bool apply_applier(const egraph::Rewrite& rule, Instance& in) {
    algebra::MlLanguage ml = ml_;
    canonical::CanonicalForms forms;
    egraph::EGraph g(ml.lang);
    g.add_analysis<algebra::CanonicalFormAnalysis>(ml, forms).set_merge_equal_forms(false);
    const egraph::Id root = g.add_term(egraph::to_term(in.lhs));
    g.rebuild();
    const egraph::Matches ms = egraph::search(g, rule.lhs);
    for (size_t i = 0; i < ms.size(); ++i) {
      if (g.find(ms.roots[i]) != g.find(root))
        continue;
      const auto result = rule.applier(g, g.find(root), ms.subst(g, rule.lhs.vars(), i));
      if (!result)
        return false;
      g.rebuild();
      egraph::Extractor ex(g, egraph::ast_size());
      // Payloads interned while applying live in `ml`: carry the symbols over by name.
      in.rhs = translate(egraph::to_tree(ex.extract(*result)), ml.lang);
      return true;
    }
    return false;
  }

  TreeTerm translate(const TreeTerm& t, const egraph::Language& from) {
    TreeTerm out{t.op, t.payload, {}};
    if (t.op == ml_.num)
      out.payload = ml_.lang.intern_rational(from.rational(t.payload));
    if (t.op == ml_.sym)
      out.payload = ml_.lang.intern_symbol(from.symbol_name(t.payload));
    for (const auto& c : t.children)
      out.children.push_back(translate(c, from));
    return out;
  }

  const rules::RuleLibrary& lib_;
  const RuleCheckOptions& options_;
  algebra::MlLanguage ml_; // a copy: instances intern their symbols
  std::mt19937_64 rng_;
};

} // namespace

std::string diagnostic(const RuleCheckResult& r) {
  switch (r.status) {
  case Status::Proved:
    return fmt::format("{}: rule '{}': proved ({})", r.where, r.rule, r.detail);
  case Status::Unsound:
    return fmt::format("{}: error: rule '{}' is UNSOUND: {}", r.where, r.rule, r.detail);
  case Status::Unproved:
    break;
  }
  return fmt::format("{}: error: rule '{}' could not be proved, and only proved rules are used: "
                     "{} (docs/rules.md: how rules are proved)",
                     r.where, r.rule, r.detail);
}

std::vector<RuleCheckResult> check_rules(const rules::RuleLibrary& library,
                                         const RuleCheckOptions& options) {
  RuleChecker checker(library, options);
  std::vector<RuleCheckResult> out;
  for (size_t i = 0; i < library.size(); ++i)
    out.push_back(checker.check(i));
  return out;
}

} // namespace volta::rules_check
