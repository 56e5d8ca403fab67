#include "egraph/scheduler.hpp"

#include <algorithm>

namespace volta::egraph {

std::size_t BackoffScheduler::shifted(std::size_t base, std::size_t times) {
  // base << times, saturating (a rule banned 64 times must not wrap to a tiny limit).
  if (times >= 63 || base > (kUnlimited >> times))
    return kUnlimited;
  return base << times;
}

void BackoffScheduler::start(std::size_t num_rules) {
  stats_.assign(num_rules, RuleState{});
}

bool BackoffScheduler::is_banned(std::size_t rule, std::size_t iteration) const {
  return stats_[rule].banned_until > iteration;
}

std::optional<std::size_t> BackoffScheduler::match_budget(std::size_t rule, std::size_t iteration) {
  if (is_banned(rule, iteration))
    return std::nullopt;
  return shifted(match_limit_, stats_[rule].times_banned);
}

bool BackoffScheduler::accept(std::size_t rule, std::size_t iteration, std::size_t matches) {
  RuleState& s = stats_[rule];
  const std::size_t threshold = shifted(match_limit_, s.times_banned);
  if (matches <= threshold)
    return true;
  const std::size_t length = shifted(ban_length_, s.times_banned);
  s.times_banned += 1;
  s.banned_until = length == kUnlimited ? kUnlimited : iteration + length;
  return false;
}

bool BackoffScheduler::can_stop(std::size_t iteration) {
  std::size_t earliest = kUnlimited;
  bool any_banned = false;
  for (const RuleState& s : stats_)
    if (s.banned_until > iteration) {
      any_banned = true;
      earliest = std::min(earliest, s.banned_until);
    }
  if (!any_banned)
    return true;
  // Bring every ban forward by the same amount so the earliest one ends now.
  const std::size_t delta = earliest - iteration;
  for (RuleState& s : stats_)
    if (s.banned_until > iteration)
      s.banned_until -= delta;
  return false;
}

} // namespace volta::egraph
