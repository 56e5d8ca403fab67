#pragma once
// Runner: equality saturation. Each iteration: hooks, limit checks, search (read-only, in
// parallel with oneTBB over (rule, chunk of classes) tasks), scheduler decisions, sequential
// apply in rule order, rebuild. Results are deterministic: the matches of a rule are
// concatenated in class order whatever the thread count, and everything that changes the
// e-graph runs on one thread, so the same input gives the same classes, ids and statistics.

#include <atomic>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/ematch.hpp"
#include "egraph/rewrite.hpp"
#include "egraph/scheduler.hpp"

namespace volta::egraph {

enum class StopReason {
  Saturated,
  IterationLimit,
  NodeLimit,
  TimeLimit,
  MemoryLimit,
  Cancelled,
  Other
};
std::string_view to_string(StopReason r);

struct RunnerLimits {
  std::size_t iterations = 30;
  std::size_t nodes = 10'000; // live e-nodes
  double seconds = 5.0;
  std::size_t memory_bytes = std::numeric_limits<std::size_t>::max(); // EGraph::approx_bytes
};

struct RunnerOptions {
  RunnerLimits limits;
  // Search threads: 0 uses TBB's default (which tbb::global_control caps), 1 searches on the
  // calling thread, n > 1 runs the search in a task arena of n threads.
  std::size_t threads = 0;
  std::size_t ac_attempt_limit = SearchOptions{}.ac_attempt_limit;
  // When not empty, rules are searched only in the classes reachable from these (recomputed
  // every iteration): saturating the part of a large, shared e-graph that one goal depends on.
  std::vector<Id> focus;
  // Set from outside (an entry's time limit, SIGINT/SIGTERM): the run stops with
  // StopReason::Cancelled. Read at every iteration, by every search task, and before every
  // match is applied (its condition and applier included), so that the run ends within one
  // match's work of the flag; the time limit is read as often.
  const std::atomic<bool>* cancel = nullptr;
};

struct RuleIterationStats {
  std::size_t matches = 0; // found (budget + 1 when the rule went over budget)
  std::size_t applied = 0; // matches whose merge changed the e-graph
  bool searched = false;   // false: banned this iteration
  bool dropped = false;    // over budget: matches discarded, rule banned
};

struct Iteration {
  std::size_t index = 0;
  std::size_t nodes = 0, classes = 0, ids = 0; // after rebuild
  std::size_t memory_bytes = 0;
  std::size_t matches = 0, applied = 0;
  std::size_t ac_truncated = 0;
  double search_seconds = 0, apply_seconds = 0, rebuild_seconds = 0;
  std::vector<RuleIterationStats> rules;
};

struct RuleStats {
  std::string name;
  std::size_t searches = 0, matches = 0, applied = 0, times_banned = 0;
};

struct RunReport {
  StopReason stop_reason = StopReason::Saturated;
  std::string stop_message; // for StopReason::Other: what the hook said
  std::vector<Iteration> iterations;
  std::vector<RuleStats> rules;
  double total_seconds = 0;
  // A human-readable table: stop reason, per-iteration sizes, per-rule totals.
  std::string summary() const;
};

// Called at the start of every iteration; returning a message stops the run (StopReason::Other).
// A hook may change the e-graph (the runner rebuilds after hooks).
using RunnerHook = std::function<std::optional<std::string>(EGraph& g, std::size_t iteration)>;

class Runner {
public:
  explicit Runner(EGraph& g, RunnerOptions options = {});
  // Default: BackoffScheduler(1000, 5).
  Runner& set_scheduler(std::unique_ptr<Scheduler> s);
  Runner& add_hook(RunnerHook hook);
  Scheduler& scheduler() { return *scheduler_; }

  // Runs the rules until a stop reason; rule names must be unique (throws otherwise).
  RunReport run(std::span<const Rewrite> rules);

private:
  EGraph& g_;
  RunnerOptions options_;
  std::unique_ptr<Scheduler> scheduler_;
  std::vector<RunnerHook> hooks_;
};

} // namespace volta::egraph
