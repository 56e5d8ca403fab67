#include "rules/rule_file.hpp"

#include <set>

#include "rules/algebra/canonical_analysis.hpp"

namespace volta::rules {

using egraph::Sexpr;

std::string SourceLocation::to_string() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::string RuleDiagnostic::to_string() const {
  return where.to_string() + ": error: " + message;
}

namespace {

void print_sexpr(const Sexpr& s, std::string& out) {
  if (!s.is_list) {
    out += s.atom;
    return;
  }
  out += '(';
  for (std::size_t i = 0; i < s.list.size(); ++i) {
    if (i)
      out += ' ';
    print_sexpr(s.list[i], out);
  }
  out += ')';
}

bool is_atom(const Sexpr& s) {
  return !s.is_list;
}
bool is_keyword(const Sexpr& s) {
  return is_atom(s) && !s.atom.empty() && s.atom[0] == ':';
}

class FileParser {
public:
  FileParser(const std::string& file, ParsedRules& out) : file_(file), out_(out) {}

  void rule(const Sexpr& s) {
    if (!s.is_list || s.list.empty() || !is_atom(s.list[0]) ||
        (s.list[0].atom != "rule" && s.list[0].atom != "birule")) {
      error(s, "expected (rule NAME LHS RHS [:if COND...]), (rule NAME LHS :apply APPLIER "
               "[:if COND...]) or (birule NAME LHS RHS [:if COND...])");
      return;
    }
    RuleSpec r;
    r.bidirectional = s.list[0].atom == "birule";
    r.where = at(s);
    const auto& items = s.list;
    if (items.size() < 2 || !is_atom(items[1]) || is_keyword(items[1]) || items[1].atom[0] == '?') {
      error(items.size() < 2 ? s : items[1],
            "a rule needs a name (a plain atom) after '" + items[0].atom + "'");
      return;
    }
    r.name = items[1].atom;
    if (items.size() < 3 || is_keyword(items[2])) {
      error(items.size() < 3 ? s : items[2], "rule '" + r.name + "' has no left-hand side");
      return;
    }
    r.lhs = items[2];
    std::size_t i = 3;
    if (i < items.size() && is_keyword(items[i]) && items[i].atom == ":apply") {
      if (r.bidirectional) {
        error(items[i], "a birule cannot use a C++ applier (it has no left-hand side to run "
                        "backwards)");
        return;
      }
      if (i + 1 >= items.size() || !is_atom(items[i + 1]) || is_keyword(items[i + 1])) {
        error(items[i], "':apply' needs the name of a C++ applier");
        return;
      }
      r.applier = items[i + 1].atom;
      i += 2;
    } else if (i < items.size() && !is_keyword(items[i])) {
      r.rhs = items[i];
      ++i;
    } else {
      error(i < items.size() ? items[i] : s,
            "rule '" + r.name + "' has no right-hand side (a pattern or ':apply APPLIER')");
      return;
    }
    if (i < items.size()) {
      if (!is_keyword(items[i]) || items[i].atom != ":if") {
        error(items[i], is_keyword(items[i])
                            ? "unknown keyword '" + items[i].atom + "' (expected ':if')"
                            : "unexpected element after the right-hand side "
                              "(conditions start with ':if')");
        return;
      }
      if (i + 1 >= items.size()) {
        error(items[i], "':if' needs at least one condition such as (nonzero ?a)");
        return;
      }
      for (std::size_t k = i + 1; k < items.size(); ++k) {
        auto c = condition(items[k]);
        if (!c)
          return;
        r.conditions.push_back(*c);
      }
    }
    out_.rules.push_back(std::move(r));
  }

private:
  std::optional<RuleCondition> condition(const Sexpr& s) {
    if (!s.is_list || s.list.size() != 2 || !is_atom(s.list[0]) || !is_atom(s.list[1])) {
      error(s, "a condition is (PREDICATE ?var): finite, total, const, positive, negative, nonneg "
               "or nonzero");
      return std::nullopt;
    }
    auto p = algebra::form_predicate_named(s.list[0].atom);
    if (!p) {
      error(s.list[0],
            "unknown predicate '" + s.list[0].atom +
                "' (expected finite, total, const, positive, negative, nonneg or nonzero)");
      return std::nullopt;
    }
    std::string v = s.list[1].atom;
    if (v.size() < 2 || v[0] != '?') {
      error(s.list[1], "a condition applies to a pattern variable such as ?a, not '" + v + "'");
      return std::nullopt;
    }
    RuleCondition c;
    c.predicate = *p;
    c.rest = v.size() > 4 && v.ends_with("...");
    c.var = v.substr(1, v.size() - 1 - (c.rest ? 3 : 0));
    return c;
  }

  SourceLocation at(const Sexpr& s) const { return SourceLocation{file_, s.line, s.column}; }
  void error(const Sexpr& s, std::string message) {
    out_.errors.push_back(RuleDiagnostic{at(s), std::move(message)});
  }

  const std::string& file_;
  ParsedRules& out_;
};

struct VarCheck {
  std::uint32_t var = 0;
  bool rest = false;
  algebra::FormPredicate predicate = algebra::FormPredicate::Finite;
};

// Every variable finite, then the rule's own conditions.
egraph::Condition make_condition(const egraph::Pattern& lhs,
                                 std::vector<VarCheck> explicit_checks) {
  std::vector<VarCheck> checks;
  for (std::uint32_t v = 0; v < lhs.vars().size(); ++v)
    checks.push_back(VarCheck{v, lhs.vars().var(v).rest, algebra::FormPredicate::Finite});
  checks.insert(checks.end(), explicit_checks.begin(), explicit_checks.end());
  return [checks](const egraph::EGraph& g, egraph::Id, const egraph::Subst& s) {
    const auto* a = g.find_analysis<algebra::CanonicalFormAnalysis>();
    if (a == nullptr)
      return false;
    for (const VarCheck& c : checks) {
      if (c.rest) {
        for (egraph::Id e : s.rest(c.var)) {
          if (!a->holds(c.predicate, g, e))
            return false;
        }
      } else if (!a->holds(c.predicate, g, s[c.var])) {
        return false;
      }
    }
    return true;
  };
}

std::optional<std::vector<VarCheck>>
resolve_conditions(const RuleSpec& spec, const egraph::Pattern& lhs, BuiltRules& out) {
  std::vector<VarCheck> checks;
  for (const auto& c : spec.conditions) {
    auto v = lhs.vars().find(c.var);
    if (!v || lhs.vars().var(*v).rest != c.rest) {
      out.errors.push_back(RuleDiagnostic{
          spec.where, "rule '" + spec.name + "': the condition on ?" + c.var +
                          (c.rest ? "..." : "") + " names no " + (c.rest ? "rest " : "") +
                          "variable of the left-hand side"});
      return std::nullopt;
    }
    checks.push_back(VarCheck{*v, c.rest, c.predicate});
  }
  return checks;
}

} // namespace

std::string RuleSpec::text(const Sexpr& s) const {
  std::string out;
  print_sexpr(s, out);
  return out;
}

ParsedRules parse_rule_file(std::string_view text, const std::string& file_name) {
  ParsedRules out;
  auto all = egraph::parse_sexprs(text);
  if (!all) {
    out.errors.push_back(RuleDiagnostic{
        SourceLocation{file_name, all.error().line, all.error().column}, all.error().message});
    return out;
  }
  FileParser p(file_name, out);
  for (const Sexpr& s : *all)
    p.rule(s);
  return out;
}

BuiltRules build_rules(const std::vector<RuleSpec>& specs, algebra::MlLanguage& ml,
                       const egraph::ApplierRegistry& registry, std::vector<std::string>* taken) {
  BuiltRules out;
  std::set<std::string> names;
  if (taken)
    names.insert(taken->begin(), taken->end());
  auto pattern_error = [&](const RuleSpec& spec, const egraph::SexprError& e) {
    out.errors.push_back(RuleDiagnostic{SourceLocation{spec.where.file, e.line, e.column},
                                        "rule '" + spec.name + "': " + e.message});
  };
  auto claim = [&](const RuleSpec& spec, const std::string& name) {
    if (names.insert(name).second)
      return true;
    out.errors.push_back(RuleDiagnostic{spec.where, "duplicate rule name '" + name + "'"});
    return false;
  };
  for (const RuleSpec& spec : specs) {
    auto lhs = egraph::Pattern::from_sexpr(spec.lhs, ml.lang, nullptr);
    if (!lhs) {
      pattern_error(spec, lhs.error());
      continue;
    }
    auto checks = resolve_conditions(spec, *lhs, out);
    if (!checks)
      continue;
    egraph::Rewrite forward;
    forward.name = spec.name;
    if (spec.rhs) {
      auto rhs = egraph::Pattern::from_sexpr(*spec.rhs, ml.lang, &*lhs);
      if (!rhs) {
        pattern_error(spec, rhs.error());
        continue;
      }
      forward.rhs = std::move(*rhs);
    } else {
      const egraph::ApplierFn* fn = registry.applier(spec.applier);
      if (!fn) {
        std::string known;
        for (const auto& n : registry.applier_names())
          known += (known.empty() ? "" : ", ") + n;
        out.errors.push_back(RuleDiagnostic{
            spec.where, "rule '" + spec.name + "': unknown applier '" + spec.applier +
                            "' (known: " + (known.empty() ? "none" : known) + ")"});
        continue;
      }
      forward.applier = *fn;
      forward.applier_name = spec.applier;
    }
    forward.condition = make_condition(*lhs, *checks);
    forward.lhs = std::move(*lhs);
    std::optional<BuiltRule> backward;
    if (spec.bidirectional) {
      auto rlhs = egraph::Pattern::from_sexpr(*spec.rhs, ml.lang, nullptr);
      if (!rlhs) {
        pattern_error(spec, egraph::SexprError{rlhs.error().line, rlhs.error().column,
                                               "as the left-hand side of the reverse rule: " +
                                                   rlhs.error().message});
        continue;
      }
      auto rrhs = egraph::Pattern::from_sexpr(spec.lhs, ml.lang, &*rlhs);
      if (!rrhs) {
        pattern_error(spec, egraph::SexprError{rrhs.error().line, rrhs.error().column,
                                               "the reverse rule: " + rrhs.error().message});
        continue;
      }
      auto rchecks = resolve_conditions(spec, *rlhs, out);
      if (!rchecks)
        continue;
      egraph::Rewrite rev;
      rev.name = spec.name + "-rev";
      rev.condition = make_condition(*rlhs, *rchecks);
      rev.lhs = std::move(*rlhs);
      rev.rhs = std::move(*rrhs);
      backward = BuiltRule{std::move(rev), &spec, true};
    }
    if (!claim(spec, forward.name) || (backward && !claim(spec, backward->rewrite.name)))
      continue;
    out.rules.push_back(BuiltRule{std::move(forward), &spec, false});
    if (backward)
      out.rules.push_back(std::move(*backward));
  }
  return out;
}

} // namespace volta::rules
