#include "engine/batch/batch.hpp"

#include <chrono>
#include <fmt/format.h>
#include <new>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view/enumerate.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/transform.hpp>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "engine/batch/memory_limit.hpp"
#include "engine/batch/progress_display.hpp"
#include "engine/batch/watchdog.hpp"
#include "engine/entry_progress.hpp"
#include "engine/exit_status.hpp"
#include "engine/report/printable_text.hpp"

namespace volta::batch {

namespace {

using Clock = std::chrono::steady_clock;

entry::EntryResult empty_result(const launch::ManifestEntry& entry) {
  entry::EntryResult r;
  r.name = entry.name;
  r.expected = entry.expected;
  r.kind = entry.kind;
  return r;
}

std::string gib(uint64_t bytes) {
  return fmt::format("{:.3g} GiB", static_cast<double>(bytes) / (1ull << 30));
}

} // namespace

namespace {

// Where the entry was when a guard stopped it, for the detail line.
std::string progress_of(const entry::EntryResult& r) {
  if (r.failure && r.failure->category == exec::FailureCategory::Cancelled) {
    if (r.failure_kernel.empty() || r.failure_kernel == "kernel")
      return " while executing the kernel";
    return fmt::format(" while executing the {} kernel", r.failure_kernel);
  }
  if (r.elements.total > 0) {
    const entry::ElementCounts& e = r.elements;
    std::string text = fmt::format(" after {} of {} elements", e.total - e.unknown, e.total);
    const std::string how = prove::decided_breakdown(e);
    if (!how.empty())
      text += " (" + how + ")";
    // The prover's own account names the element it was on and what stopped it there ("out[7]:
    // z3: cancelled", "C[0]: ... term budget"); a bare "cancelled" says nothing more.
    if (!r.detail.empty() && r.detail != "cancelled" &&
        r.detail.find("reached") == std::string::npos)
      text += "; at the stop: " + r.detail;
    return text;
  }
  return "";
}

// An entry the batch did not finish because it was interrupted.
void mark_not_run(entry::EntryResult& r, bool started) {
  r.verdict = Verdict::Unknown;
  r.not_run = true;
  r.guard = entry::Guard::Interrupted;
  r.detail = started ? "not finished: the batch was interrupted while it ran"
                     : "not run: the batch was interrupted before it started";
  r.failure.reset();
  r.failure_kernel.clear();
  r.races.clear();
  r.races_truncated = false;
  r.counterexample.reset();
}

// Turns what the engine reported after a guard stopped it into UNKNOWN with the guard's reason.
// A verdict the engine reached before it noticed the cancellation stands (a counterexample or a
// race found in time is still a fact).
void apply_guards(entry::EntryResult& r, Watchdog::Reason reason, bool out_of_memory,
                  const BatchOptions& options) {
  if (out_of_memory) {
    entry::EntryResult fresh;
    fresh.index = r.index;
    fresh.name = r.name;
    fresh.kind = r.kind;
    fresh.expected = r.expected;
    fresh.seconds = r.seconds;
    r = std::move(fresh);
    r.verdict = Verdict::Unknown;
    r.guard = entry::Guard::MemoryLimit;
    r.detail = options.max_memory_bytes > 0
                   ? fmt::format("memory limit of {} reached (an allocation failed)",
                                 gib(options.max_memory_bytes))
                   : "out of memory (an allocation failed)";
    return;
  }
  if (reason == Watchdog::Reason::Interrupted) {
    // A verdict reached before the cancellation was noticed stands (as for the other guards);
    // anything the cancellation cut short is not run. An ERROR from bad input is final too.
    if (r.verdict == Verdict::Unknown || (r.verdict == Verdict::Error && !r.bad_input))
      mark_not_run(r, true);
    return;
  }
  if (r.verdict == Verdict::Unknown && reason != Watchdog::Reason::None) {
    const bool time = reason == Watchdog::Reason::TimeLimit;
    r.guard = time ? entry::Guard::TimeLimit : entry::Guard::MemoryLimit;
    r.detail =
        time ? fmt::format("time limit of {}s reached{}", options.timeout_seconds, progress_of(r))
             : fmt::format("memory limit of {} reached{}", gib(options.max_memory_bytes),
                           progress_of(r));
    if (r.failure && r.failure->category == exec::FailureCategory::Cancelled) {
      r.failure.reset(); // a guard, not a safety failure
      r.failure_kernel.clear();
    }
    return;
  }
  if (r.verdict != Verdict::Unknown) {
    r.guard = entry::Guard::None; // a verdict reached stands: no guard stopped it
    return;
  }
  // Otherwise the guard the engine named itself (the prover's budgets and its own time check).
  if (r.failure && r.failure->category == exec::FailureCategory::InstructionBudget)
    r.guard = entry::Guard::InstructionBudget;
}

} // namespace

std::vector<const launch::ManifestEntry*> select_entries(const launch::Manifest& manifest,
                                                         const BatchOptions& options) {
  const auto matches_filter = [&](const launch::ManifestEntry& e) {
    return !options.filter || std::regex_search(e.name, *options.filter);
  };
  // Sharding goes by position among the filtered entries, so every shard of the same manifest
  // and filter sees the same list.
  const auto in_shard = [&](const auto& position_and_entry) {
    const size_t position = position_and_entry.first;
    return !options.shard || position % static_cast<size_t>(options.shard->second) ==
                                 static_cast<size_t>(options.shard->first);
  };
  return manifest.entries | ranges::views::filter(matches_filter) | ranges::views::enumerate |
         ranges::views::filter(in_shard) |
         ranges::views::transform(
             [](const auto& position_and_entry) { return &position_and_entry.second; }) |
         ranges::to<std::vector>();
}

std::vector<entry::EntryResult> run_batch(const std::vector<const launch::ManifestEntry*>& entries,
                                          const EntryRunner& runner, const BatchOptions& options) {
  std::vector<entry::EntryResult> results(entries.size());
  size_t name_width = 0;
  for (const auto* e : entries)
    name_width = std::max(name_width, report::printable(e->name).size());
  report::LineStyle style{options.color, std::min<size_t>(name_width, 48)};
  Watchdog::Limits limits;
  limits.seconds = options.timeout_seconds;
  limits.memory_bytes = options.max_memory_bytes;
  limits.resident_bytes = options.resident_bytes;
  limits.interrupt = options.interrupt;
  Watchdog dog(std::move(limits));
  ProgressDisplay display(options.progress, options.terminal, entries.size(), style, 0,
                          options.heartbeat);
  const int jobs = std::max(1, options.jobs);
  // An entry stopped by the memory limit while others ran beside it may not be the one that
  // used the memory: it runs again alone, and only then is the verdict final.
  std::vector<char> run_again(entries.size(), 0);

  auto run_one = [&](size_t i, bool alone) {
    const auto& entry = *entries[i];
    if (options.interrupt != nullptr && options.interrupt->load() != 0) {
      results[i] = empty_result(entry);
      results[i].index = entry.index;
      mark_not_run(results[i], false);
      return;
    }
    display.started(i, entry.name);
    Watchdog::Entry watch;
    const auto start = Clock::now();
    entry::EntryResult r;
    bool out_of_memory = false;
    {
      Watchdog::Scope scope(dog.active() ? &dog : nullptr, watch);
      try {
        // Isolated: while this entry waits for its own parallel work, its thread must not pick
        // up another entry (which would then count against this entry's time).
        const ProgressSink sink = [&](std::string_view phase, size_t done, size_t total) {
          display.progress(i, phase, done, total);
        };
        tbb::this_task_arena::isolate([&] {
          ProgressScope scope(&sink);
          r = runner(entry, watch.cancel_flag());
        });
      } catch (const std::bad_alloc&) {
        r = empty_result(entry);
        out_of_memory = true;
      } catch (const std::exception& e) {
        r = empty_result(entry);
        r.verdict = Verdict::Error;
        r.detail = fmt::format("internal error: {}", e.what());
      } catch (...) {
        r = empty_result(entry);
        r.verdict = Verdict::Error;
        r.detail = "internal error: unknown exception";
      }
    }
    r.index = entry.index;
    if (r.seconds == 0)
      r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const bool memory_hit = out_of_memory || watch.reason() == Watchdog::Reason::MemoryLimit;
    if (options.max_memory_bytes > 0 || out_of_memory)
      release_free_memory();
    if (memory_hit && !alone) {
      run_again[i] = 1;
      display.set_aside(i);
      return;
    }
    apply_guards(r, watch.reason(), out_of_memory, options);
    results[i] = std::move(r);
    display.finished(i, results[i]);
  };

  const bool alone = jobs == 1 || entries.size() <= 1;
  if (alone) {
    for (size_t i = 0; i < entries.size(); ++i)
      run_one(i, true);
  } else {
    tbb::task_arena arena(jobs);
    arena.execute([&] {
      tbb::parallel_for(size_t{0}, entries.size(), size_t{1}, [&](size_t i) { run_one(i, false); });
    });
    size_t again = 0;
    for (char c : run_again)
      again += c != 0;
    if (again > 0) {
      display.note(fmt::format(
          "re-running {} {} alone: the memory limit was reached while entries ran in parallel",
          again, again == 1 ? "entry" : "entries"));
      for (size_t i = 0; i < entries.size(); ++i) {
        if (run_again[i])
          run_one(i, true);
      }
    }
  }
  return results;
}

Expected<std::pair<int, int>> parse_shard(const std::string& text) {
  const size_t slash = text.find('/');
  int index = -1, count = -1;
  try {
    if (slash == std::string::npos)
      throw std::invalid_argument("no slash");
    size_t used_i = 0, used_n = 0;
    const std::string a = text.substr(0, slash), b = text.substr(slash + 1);
    if (a.empty() || b.empty() || a[0] == '-' || a[0] == '+' || b[0] == '-' || b[0] == '+') {
      throw std::invalid_argument("sign");
    }
    index = std::stoi(a, &used_i);
    count = std::stoi(b, &used_n);
    if (used_i != a.size() || used_n != b.size())
      throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    return Unexpected{fmt::format(
        "--shard: expected I/N with integers 0 <= I < N (e.g. 0/16), got \"{}\"", text)};
  }
  if (count < 1 || index < 0 || index >= count) {
    return Unexpected{fmt::format(
        "--shard: expected 0 <= I < N, got {}/{} (shards are numbered from 0, as Slurm's "
        "SLURM_ARRAY_TASK_ID with --array=0-{})",
        index, count, count > 0 ? count - 1 : 0)};
  }
  return std::make_pair(index, count);
}

} // namespace volta::batch
