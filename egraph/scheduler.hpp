#pragma once
// Rule schedulers decide, per iteration, which rules search and how many matches a rule may
// produce before its matches are dropped and it is banned.
//
// BackoffScheduler (egg's default policy): a rule may produce at most match_limit << times_banned
// matches in one iteration; past that its matches are discarded and it is banned for
// ban_length << times_banned iterations (times_banned then grows by one). When the e-graph
// saturates while rules are banned, the bans are shortened so that the earliest banned rule runs
// again in the next iteration (can_stop returns false), so saturation is only reported with every
// rule having run on the final e-graph.

#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

namespace volta::egraph {

class Scheduler {
public:
  static constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();
  virtual ~Scheduler() = default;
  virtual void start(std::size_t num_rules) {}
  // nullopt: rule is banned this iteration; otherwise the largest match count it may keep.
  virtual std::optional<std::size_t> match_budget(std::size_t rule, std::size_t iteration) {
    return kUnlimited;
  }
  // Called with the number of matches found (at most budget + 1). False: discard them (the rule
  // is banned from now on).
  virtual bool accept(std::size_t rule, std::size_t iteration, std::size_t matches) { return true; }
  // The e-graph did not change this iteration; may the runner stop?
  virtual bool can_stop(std::size_t iteration) { return true; }
  virtual bool is_banned(std::size_t rule, std::size_t iteration) const { return false; }
  virtual std::size_t times_banned(std::size_t rule) const { return 0; }
};

// Every rule searches every iteration, without limit.
class SimpleScheduler : public Scheduler {};

class BackoffScheduler : public Scheduler {
public:
  explicit BackoffScheduler(std::size_t match_limit = 1000, std::size_t ban_length = 5)
      : match_limit_(match_limit), ban_length_(ban_length) {}

  void start(std::size_t num_rules) override;
  std::optional<std::size_t> match_budget(std::size_t rule, std::size_t iteration) override;
  bool accept(std::size_t rule, std::size_t iteration, std::size_t matches) override;
  bool can_stop(std::size_t iteration) override;
  bool is_banned(std::size_t rule, std::size_t iteration) const override;
  std::size_t times_banned(std::size_t rule) const override { return stats_[rule].times_banned; }
  std::size_t banned_until(std::size_t rule) const { return stats_[rule].banned_until; }

private:
  struct RuleState {
    std::size_t times_banned = 0;
    std::size_t banned_until = 0;
  };
  static std::size_t shifted(std::size_t base, std::size_t times);

  std::size_t match_limit_;
  std::size_t ban_length_;
  std::vector<RuleState> stats_;
};

} // namespace volta::egraph
