#include "egraph/subst.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "egraph/egraph.hpp"

namespace volta::egraph {

namespace {
std::uint32_t var_index(const VarTable& vars, std::string_view name, bool rest) {
  if (!name.empty() && name.front() == '?')
    name.remove_prefix(1);
  if (rest && name.ends_with("..."))
    name.remove_suffix(3);
  auto i = vars.find(name);
  if (!i || vars.var(*i).rest != rest)
    throw std::out_of_range("Subst: no " + std::string(rest ? "rest " : "") + "variable ?" +
                            std::string(name));
  return *i;
}
} // namespace

Id Subst::get(std::string_view name) const {
  return (*this)[var_index(*vars_, name, false)];
}

std::vector<Id> Subst::rest(std::string_view name) const {
  return rest(var_index(*vars_, name, true));
}

std::vector<Id> Subst::rest(std::uint32_t var) const {
  const auto slot = vars_->var(var).slot;
  const Id node = slots_[slot];
  const Id m = slots_[slot + 1];
  std::vector<Id> taken(slots_.begin() + slot + 2, slots_.begin() + slot + 2 + m);
  std::sort(taken.begin(), taken.end());
  const auto kids = g_->node(node).children; // sorted: canonical since the last rebuild
  std::vector<Id> out;
  out.reserve(kids.size() - m);
  std::set_difference(kids.begin(), kids.end(), taken.begin(), taken.end(),
                      std::back_inserter(out));
  return out;
}

} // namespace volta::egraph
