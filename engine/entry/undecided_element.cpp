#include "engine/entry/undecided_element.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

#include "engine/prove/undecided_pair.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::entry {

namespace {

// Printed subterms and rules are for a person to read and paste.
constexpr size_t kSubtermChars = 400;
constexpr size_t kRuleSideChars = 1200;

// "out[3]" -> "decide-out-3": a rule name the rule language accepts.
std::string rule_name(const std::string& element) {
  std::string name = "decide-";
  for (char c : element) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_')
      name += c;
    else if (name.back() != '-')
      name += '-';
  }
  while (name.back() == '-')
    name.pop_back();
  return name;
}

} // namespace

UndecidedElement describe_undecided(const symbolic::ExprStore& store, prove::ElementProver& prover,
                                    const prove::ElementTally& tally, const ProveOptions& options) {
  UndecidedElement u;
  u.element = tally.unknown_element;
  const std::string reason = tally.unknown_reason.value_or("");
  std::string budget;
  switch (tally.unknown_limit) {
  case prove::Limit::TermBudget:
    u.limit = fmt::format("the term budget ({} terms)", options.term_budget);
    budget = fmt::format("a larger term budget: --max-terms {}", options.term_budget * 4);
    break;
  case prove::Limit::Z3TranslationSize:
    u.limit = "the size of what Z3 is given";
    budget = "a larger size for Z3: --max-terms N";
    break;
  case prove::Limit::ENodeBudget:
    u.limit = fmt::format("the e-node budget (--rule-nodes {})", options.saturation.new_nodes);
    budget =
        fmt::format("a larger e-node budget: --rule-nodes {}", options.saturation.new_nodes * 4);
    break;
  case prove::Limit::SaturationTime:
    u.limit =
        fmt::format("the saturation time limit (--rule-seconds {})", options.saturation.seconds);
    budget = fmt::format("a longer saturation: --rule-seconds {}", options.saturation.seconds * 4);
    break;
  case prove::Limit::None:
    u.limit = reason;
    if (reason.find("timeout") != std::string::npos || reason.find("time") != std::string::npos)
      budget = "a longer Z3 time: --z3-timeout MS";
    break;
  }
  if (!budget.empty())
    u.suggestions.push_back(budget);
  if (tally.unknown_ref == 0 && tally.unknown_opt == 0)
    return u;
  const auto known_equal = [&](symbolic::ExprId a, symbolic::ExprId b) {
    const auto fa = prover.egraph().canonical_form(a);
    return fa && fa == prover.egraph().canonical_form(b);
  };
  const prove::UndecidedPair pair =
      prove::smallest_undecided(store, tally.unknown_ref, tally.unknown_opt, known_equal);
  u.reference_subterm = symbolic::to_sexpr(store, pair.ref, kSubtermChars);
  u.optimized_subterm = symbolic::to_sexpr(store, pair.opt, kSubtermChars);
  if (auto rule = prove::rule_of_shape(store, pair, rule_name(u.element), kRuleSideChars)) {
    u.rule = *rule;
    u.suggestions.push_back(
        "a rule of this shape, in a file FILE.rules (prove it with `volta-eg rules check "
        "FILE.rules`, then use it with `--rules FILE.rules`; docs/rules.md): " +
        u.rule);
  }
  return u;
}

} // namespace volta::entry
