#pragma once
// ApplierRegistry: C++ appliers and conditions by name, so that a rule file can say "this rule's
// right-hand side is the applier `fold-sum`" or "only if `nonzero ?a`". An applier may come with
// a step verifier that replays one of its explanation steps on terms; without one, the
// explanation checker reports its steps as trusted.

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/rewrite.hpp"
#include "egraph/tree_term.hpp"

namespace volta::egraph {

// Checks that `to` follows from `from` by one step of a named rule (term level).
using StepVerifier =
    std::function<bool(const Language& lang, const TreeTerm& from, const TreeTerm& to)>;

class ApplierRegistry {
public:
  // Throws std::invalid_argument on a duplicate name.
  void add_applier(std::string name, ApplierFn fn, StepVerifier verifier = {});
  void add_condition(std::string name, Condition c);

  const ApplierFn* applier(std::string_view name) const;
  const StepVerifier* verifier(std::string_view name) const;
  const Condition* condition(std::string_view name) const;
  std::vector<std::string> applier_names() const;
  std::vector<std::string> condition_names() const;

  // A rule whose right-hand side is the named applier (throws if unknown).
  Rewrite make_rule(Language& lang, std::string rule_name, std::string_view lhs,
                    std::string_view applier_name, Condition condition = {}) const;

private:
  struct Entry {
    ApplierFn fn;
    StepVerifier verifier;
  };
  std::map<std::string, Entry, std::less<>> appliers_;
  std::map<std::string, Condition, std::less<>> conditions_;
};

} // namespace volta::egraph
