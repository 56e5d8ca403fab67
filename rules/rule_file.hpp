#pragma once
// Rule files: the ML algebra rule library as text (rules/library/*.rules, and a researcher's own
// files given with `--rules FILE`), loaded at run time. docs/rules.md has the syntax:
//
//   ; a comment
//   (rule exp-of-sum (exp (+ ?a ?b)) (* (exp ?a) (exp ?b)))
//   (rule div-self (/ ?a ?a) 1 :if (nonzero ?a))
//   (birule mul-div (* ?a (/ ?b ?c)) (/ (* ?a ?b) ?c))       ; also mul-div-rev, right to left
//   (rule normalize (+ ?x ?y ?r...) :apply canonical-term)    ; a C++ applier, by name
//
// A rule applies only where every variable is bound to a class whose canonical form is a finite
// value of the algebra (never to ±inf or an opaque value); `:if` adds conditions on variables:
// finite, total, const, positive, negative, nonneg, nonzero (rules/algebra/form_predicates.hpp),
// each on the canonical form of the bound class (a rest variable: on every element).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/applier_registry.hpp"
#include "egraph/rewrite.hpp"
#include "egraph/sexpr.hpp"
#include "rules/algebra/form_predicates.hpp"
#include "rules/algebra/ml_language.hpp"

namespace volta::rules {

struct SourceLocation {
  std::string file;
  std::size_t line = 1, column = 1;
  std::string to_string() const; // file:line:col
};

struct RuleCondition {
  algebra::FormPredicate predicate = algebra::FormPredicate::Finite;
  std::string var; // without '?' and '...'
  bool rest = false;
};

struct RuleSpec {
  std::string name;
  egraph::Sexpr lhs;
  std::optional<egraph::Sexpr> rhs; // a pattern rule
  std::string applier;              // a C++ applier rule (when rhs is empty)
  std::vector<RuleCondition> conditions;
  bool bidirectional = false;
  SourceLocation where;
  std::string text(const egraph::Sexpr& s) const;
};

struct RuleDiagnostic {
  SourceLocation where;
  std::string message;
  std::string to_string() const; // file:line:col: error: message
};

struct ParsedRules {
  std::vector<RuleSpec> rules;
  std::vector<RuleDiagnostic> errors;
};

// Reads the rules of one file; every syntax error is reported with its location, and the rules
// that parsed are kept.
ParsedRules parse_rule_file(std::string_view text, const std::string& file_name);

// One rule built for the e-graph: the Rewrite (two for a birule) and where it came from.
struct BuiltRule {
  egraph::Rewrite rewrite;
  const RuleSpec* spec = nullptr;
  bool reverse = false; // the right-to-left half of a birule
};

struct BuiltRules {
  std::vector<BuiltRule> rules;
  std::vector<RuleDiagnostic> errors;
};

// Builds the rewrites of `specs` (which must outlive the result) over the ML language: patterns
// checked against the operators (unknown operator, arity, a right-hand side using a variable the
// left does not bind), conditions against the variables, appliers against `registry`, rule
// names unique (also against `taken`). Conditions read the algebra::CanonicalFormAnalysis of the
// e-graph they run on (rules whose e-graph has none never apply).
BuiltRules build_rules(const std::vector<RuleSpec>& specs, algebra::MlLanguage& ml,
                       const egraph::ApplierRegistry& registry,
                       std::vector<std::string>* taken = nullptr);

} // namespace volta::rules
