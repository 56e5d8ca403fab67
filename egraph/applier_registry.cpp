#include "egraph/applier_registry.hpp"

#include <stdexcept>

namespace volta::egraph {

void ApplierRegistry::add_applier(std::string name, ApplierFn fn, StepVerifier verifier) {
  if (!fn)
    throw std::invalid_argument("applier '" + name + "' is empty");
  if (!appliers_.emplace(name, Entry{std::move(fn), std::move(verifier)}).second)
    throw std::invalid_argument("duplicate applier '" + name + "'");
}

void ApplierRegistry::add_condition(std::string name, Condition c) {
  if (!c)
    throw std::invalid_argument("condition '" + name + "' is empty");
  if (!conditions_.emplace(name, std::move(c)).second)
    throw std::invalid_argument("duplicate condition '" + name + "'");
}

const ApplierFn* ApplierRegistry::applier(std::string_view name) const {
  auto it = appliers_.find(name);
  return it == appliers_.end() ? nullptr : &it->second.fn;
}

const StepVerifier* ApplierRegistry::verifier(std::string_view name) const {
  auto it = appliers_.find(name);
  return it == appliers_.end() || !it->second.verifier ? nullptr : &it->second.verifier;
}

const Condition* ApplierRegistry::condition(std::string_view name) const {
  auto it = conditions_.find(name);
  return it == conditions_.end() ? nullptr : &it->second;
}

std::vector<std::string> ApplierRegistry::applier_names() const {
  std::vector<std::string> out;
  for (const auto& [name, e] : appliers_)
    out.push_back(name);
  return out;
}

std::vector<std::string> ApplierRegistry::condition_names() const {
  std::vector<std::string> out;
  for (const auto& [name, c] : conditions_)
    out.push_back(name);
  return out;
}

Rewrite ApplierRegistry::make_rule(Language& lang, std::string rule_name, std::string_view lhs,
                                   std::string_view applier_name, Condition condition) const {
  const ApplierFn* fn = applier(applier_name);
  if (!fn)
    throw std::invalid_argument("unknown applier '" + std::string(applier_name) + "'");
  Rewrite r = Rewrite::with_applier(lang, std::move(rule_name), lhs, *fn, std::move(condition));
  r.applier_name = std::string(applier_name);
  return r;
}

} // namespace volta::egraph
