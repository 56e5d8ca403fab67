#include "rules/rule_library.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "rules/appliers.hpp"

namespace volta::rules {

RuleLibrary::RuleLibrary()
    : ml_(std::make_unique<algebra::MlLanguage>(algebra::make_ml_language())),
      registry_(ml_appliers(*ml_)) {}

RuleLibrary RuleLibrary::shipped() {
  RuleLibrary lib;
  for (const RuleSource& s : shipped_rule_sources()) {
    const auto errors = lib.add(s);
    if (!errors.empty())
      throw std::logic_error("shipped rule file does not build: " + errors.front().to_string());
  }
  return lib;
}

std::vector<RuleDiagnostic> RuleLibrary::add(const RuleSource& source) {
  files_.push_back(parse_rule_file(source.text, source.name));
  // Build even after syntax errors, so that one run reports the pattern errors of the rules
  // that did parse too.
  std::vector<RuleDiagnostic> errors = files_.back().errors;
  BuiltRules built = build_rules(files_.back().rules, *ml_, registry_, &names_);
  errors.insert(errors.end(), built.errors.begin(), built.errors.end());
  if (!errors.empty()) {
    files_.pop_back();
    std::stable_sort(errors.begin(), errors.end(),
                     [](const RuleDiagnostic& a, const RuleDiagnostic& b) {
                       return a.where.line != b.where.line ? a.where.line < b.where.line
                                                           : a.where.column < b.where.column;
                     });
    return errors;
  }
  sources_.push_back(source);
  for (auto& b : built.rules) {
    names_.push_back(b.rewrite.name);
    origin_.push_back(Origin{b.spec, b.reverse});
    rewrites_.push_back(std::move(b.rewrite));
  }
  return {};
}

std::vector<RuleDiagnostic> RuleLibrary::add_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return {RuleDiagnostic{SourceLocation{path, 1, 1}, "cannot read the rule file"}};
  std::ostringstream text;
  text << in.rdbuf();
  return add(RuleSource{path, text.str()});
}

} // namespace volta::rules
