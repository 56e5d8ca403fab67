#include "egraph/runner.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace volta::egraph {

std::string_view to_string(StopReason r) {
  switch (r) {
  case StopReason::Saturated:
    return "Saturated";
  case StopReason::IterationLimit:
    return "IterationLimit";
  case StopReason::NodeLimit:
    return "NodeLimit";
  case StopReason::TimeLimit:
    return "TimeLimit";
  case StopReason::MemoryLimit:
    return "MemoryLimit";
  case StopReason::Cancelled:
    return "Cancelled";
  case StopReason::Other:
    return "Other";
  }
  return "?";
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Classes per search task: small enough to balance threads, large enough to amortize a task.
constexpr std::size_t kChunk = 256;

// The canonical classes reachable from `roots` through node children, ascending.
std::vector<char> reachable_classes(const EGraph& g, const std::vector<Id>& roots) {
  std::vector<char> seen(g.num_ids(), 0);
  std::vector<Id> stack;
  for (Id r : roots) {
    const Id c = g.find(r);
    if (!seen[c]) {
      seen[c] = 1;
      stack.push_back(c);
    }
  }
  while (!stack.empty()) {
    const Id c = stack.back();
    stack.pop_back();
    for (Id n : g.class_nodes(c)) {
      for (Id k : g.node(n).children) {
        const Id kc = g.find(k);
        if (!seen[kc]) {
          seen[kc] = 1;
          stack.push_back(kc);
        }
      }
    }
  }
  return seen;
}

struct SearchTask {
  std::size_t rule;
  std::size_t begin, end; // into the rule's candidate classes
};

} // namespace

Runner::Runner(EGraph& g, RunnerOptions options)
    : g_(g), options_(options), scheduler_(std::make_unique<BackoffScheduler>()) {}

Runner& Runner::set_scheduler(std::unique_ptr<Scheduler> s) {
  scheduler_ = std::move(s);
  return *this;
}

Runner& Runner::add_hook(RunnerHook hook) {
  hooks_.push_back(std::move(hook));
  return *this;
}

RunReport Runner::run(std::span<const Rewrite> rules) {
  {
    std::set<std::string_view> names;
    for (const auto& r : rules) {
      if (!names.insert(r.name).second)
        throw std::invalid_argument("Runner: duplicate rule name '" + r.name + "'");
      if (!r.rhs && !r.applier)
        throw std::invalid_argument("Runner: rule '" + r.name + "' has no right-hand side");
    }
  }
  const auto start = Clock::now();
  const RunnerLimits& lim = options_.limits;
  RunReport report;
  for (const auto& r : rules)
    report.rules.push_back(RuleStats{r.name});
  std::vector<std::uint32_t> reasons;
  for (const auto& r : rules)
    reasons.push_back(g_.reason_id(r.name));
  scheduler_->start(rules.size());
  g_.rebuild();

  std::optional<tbb::task_arena> arena;
  if (options_.threads > 1)
    arena.emplace(static_cast<int>(options_.threads));

  auto stop = [&](StopReason why, std::string message = {}) {
    report.stop_reason = why;
    report.stop_message = std::move(message);
    report.total_seconds = seconds_since(start);
    for (std::size_t r = 0; r < rules.size(); ++r)
      report.rules[r].times_banned = scheduler_->times_banned(r);
    return report;
  };
  auto over_nodes = [&] { return g_.num_nodes() > lim.nodes; };
  auto over_memory = [&] { return g_.approx_bytes() > lim.memory_bytes; };
  auto over_time = [&] { return seconds_since(start) > lim.seconds; };
  auto cancelled = [&] {
    return options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed);
  };

  for (std::size_t iter = 0;; ++iter) {
    for (auto& hook : hooks_)
      if (auto msg = hook(g_, iter)) {
        g_.rebuild();
        return stop(StopReason::Other, *msg);
      }
    g_.rebuild();
    if (iter >= lim.iterations)
      return stop(StopReason::IterationLimit);
    if (over_nodes())
      return stop(StopReason::NodeLimit);
    if (over_memory())
      return stop(StopReason::MemoryLimit);
    if (over_time())
      return stop(StopReason::TimeLimit);
    if (cancelled())
      return stop(StopReason::Cancelled);

    Iteration it;
    it.index = iter;
    it.rules.resize(rules.size());

    // ---- Search (read-only, parallel).
    auto t0 = Clock::now();
    g_.build_op_index();
    std::vector<std::optional<std::size_t>> budget(rules.size());
    std::vector<std::span<const Id>> candidates(rules.size());
    std::vector<SearchTask> tasks;
    std::vector<char> in_focus;
    std::vector<std::vector<Id>> focused(rules.size());
    if (!options_.focus.empty())
      in_focus = reachable_classes(g_, options_.focus);
    for (std::size_t r = 0; r < rules.size(); ++r) {
      budget[r] = scheduler_->match_budget(r, iter);
      if (!budget[r])
        continue;
      candidates[r] = candidate_classes(g_, rules[r].lhs);
      if (!in_focus.empty()) {
        for (Id c : candidates[r])
          if (in_focus[c])
            focused[r].push_back(c);
        candidates[r] = focused[r];
      }
      for (std::size_t b = 0; b < candidates[r].size(); b += kChunk)
        tasks.push_back({r, b, std::min(b + kChunk, candidates[r].size())});
    }
    std::vector<Matches> found(tasks.size());
    std::vector<SearchStats> task_stats(tasks.size());
    std::vector<std::atomic<std::size_t>> rule_count(rules.size());
    auto run_task = [&](std::size_t t) {
      const SearchTask& task = tasks[t];
      const std::size_t cap = *budget[task.rule] == Scheduler::kUnlimited ? Scheduler::kUnlimited
                                                                          : *budget[task.rule] + 1;
      // Once a rule is known to be over budget its remaining tasks are skipped; whether it is
      // over budget does not depend on which tasks ran first, so the outcome is deterministic.
      if (rule_count[task.rule].load(std::memory_order_relaxed) >= cap)
        return;
      // A cancelled or late run discards its matches (it stops right after the search), so
      // the tasks left can be skipped.
      if (cancelled() || over_time())
        return;
      SearchOptions opts;
      opts.match_limit = cap;
      opts.ac_attempt_limit = options_.ac_attempt_limit;
      search_classes(g_, rules[task.rule].lhs,
                     candidates[task.rule].subspan(task.begin, task.end - task.begin), found[t],
                     opts, &task_stats[t]);
      found[t].stride = rules[task.rule].lhs.vars().stride();
      rule_count[task.rule].fetch_add(found[t].size(), std::memory_order_relaxed);
    };
    auto run_all = [&] {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, tasks.size(), 1),
                        [&](const tbb::blocked_range<std::size_t>& range) {
                          for (std::size_t t = range.begin(); t != range.end(); ++t)
                            run_task(t);
                        });
    };
    if (options_.threads == 1 || tasks.size() <= 1) {
      for (std::size_t t = 0; t < tasks.size(); ++t)
        run_task(t);
    } else if (arena) {
      arena->execute(run_all);
    } else {
      run_all();
    }
    std::vector<Matches> matches(rules.size());
    for (std::size_t r = 0; r < rules.size(); ++r)
      matches[r].stride = rules[r].lhs.vars().stride();
    for (std::size_t t = 0; t < tasks.size(); ++t) {
      matches[tasks[t].rule].append(found[t]);
      it.ac_truncated += task_stats[t].ac_truncated;
    }
    for (std::size_t r = 0; r < rules.size(); ++r) {
      if (!budget[r])
        continue;
      RuleIterationStats& rs = it.rules[r];
      rs.searched = true;
      const std::size_t b = *budget[r];
      rs.matches = matches[r].size() > b ? b + 1 : matches[r].size();
      if (!scheduler_->accept(r, iter, rs.matches)) {
        rs.dropped = true;
        matches[r].clear();
      }
      it.matches += rs.matches;
      report.rules[r].searches += 1;
      report.rules[r].matches += rs.matches;
    }
    it.search_seconds = seconds_since(t0);
    if (over_time() || cancelled()) {
      report.iterations.push_back(std::move(it));
      return stop(cancelled() ? StopReason::Cancelled : StopReason::TimeLimit);
    }

    // ---- Apply (sequential, rule order, match order).
    t0 = Clock::now();
    const std::uint64_t version_before = g_.version();
    std::optional<StopReason> limit_hit;
    std::size_t since_check = 0;
    const bool explain = g_.explanations_enabled();
    for (std::size_t r = 0; r < rules.size() && !limit_hit; ++r) {
      const Rewrite& rule = rules[r];
      const Justification why = Justification::named(reasons[r]);
      const Matches& ms = matches[r];
      for (std::size_t i = 0; i < ms.size(); ++i) {
        // The flag and the clock before every match: a condition or an applier may be slow
        // on a large class (each is linear in what it reads, never exponential).
        if (cancelled()) {
          limit_hit = StopReason::Cancelled;
          break;
        }
        if (over_time()) {
          limit_hit = StopReason::TimeLimit;
          break;
        }
        const Id root = ms.roots[i];
        const Subst s = ms.subst(g_, rule.lhs.vars(), i);
        if (rule.condition && !rule.condition(g_, root, s))
          continue;
        std::optional<Id> result;
        if (rule.rhs)
          result = instantiate(g_, *rule.rhs, s);
        else
          result = rule.applier(g_, root, s);
        if (result) {
          // With explanations, merge the exact lhs instance so the proof names what matched.
          const Id from = explain ? instantiate_exact(g_, rule.lhs, s) : root;
          if (g_.merge(from, *result, why)) {
            ++it.rules[r].applied;
            ++report.rules[r].applied;
            ++it.applied;
          }
        }
        if (++since_check == 64) {
          since_check = 0;
          if (over_nodes())
            limit_hit = StopReason::NodeLimit;
          else if (over_memory())
            limit_hit = StopReason::MemoryLimit;
          if (limit_hit)
            break;
        }
      }
    }
    it.apply_seconds = seconds_since(t0);

    t0 = Clock::now();
    g_.rebuild();
    it.rebuild_seconds = seconds_since(t0);
    it.nodes = g_.num_nodes();
    it.classes = g_.num_classes();
    it.ids = g_.num_ids();
    it.memory_bytes = g_.approx_bytes();
    const bool changed = g_.version() != version_before;
    report.iterations.push_back(std::move(it));
    if (limit_hit)
      return stop(*limit_hit);
    if (!changed && scheduler_->can_stop(iter))
      return stop(StopReason::Saturated);
  }
}

std::string RunReport::summary() const {
  std::string out = "stop: " + std::string(to_string(stop_reason));
  if (!stop_message.empty())
    out += " (" + stop_message + ")";
  char buf[256];
  std::snprintf(buf, sizeof buf, ", %zu iterations, %.3f s\n", iterations.size(), total_seconds);
  out += buf;
  out += " iter    nodes  classes  matches  applied  search_s   apply_s rebuild_s\n";
  for (const auto& it : iterations) {
    std::snprintf(buf, sizeof buf, "%5zu %8zu %8zu %8zu %8zu %9.4f %9.4f %9.4f\n", it.index,
                  it.nodes, it.classes, it.matches, it.applied, it.search_seconds, it.apply_seconds,
                  it.rebuild_seconds);
    out += buf;
  }
  out += " rule                             searches  matches  applied  banned\n";
  for (const auto& r : rules) {
    std::snprintf(buf, sizeof buf, " %-32s %8zu %8zu %8zu %7zu\n", r.name.c_str(), r.searches,
                  r.matches, r.applied, r.times_banned);
    out += buf;
  }
  return out;
}

} // namespace volta::egraph
