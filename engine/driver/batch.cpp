#include "engine/driver/batch.hpp"

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <iostream>
#include <mutex>

#include "engine/cli/exit_codes.hpp"

namespace volta::driver {

std::vector<const launch::ManifestEntry*> select_entries(const launch::Manifest& manifest,
                                                         const BatchOptions& options) {
  std::vector<const launch::ManifestEntry*> selected;
  size_t position = 0;
  for (const auto& e : manifest.entries) {
    if (options.filter && !std::regex_search(e.name, *options.filter)) continue;
    // Sharding goes by position among the filtered entries, so every shard of the same
    // manifest and filter sees the same list.
    const size_t index = position++;
    if (options.shard && static_cast<int>(index % static_cast<size_t>(options.shard->second)) != options.shard->first) {
      continue;
    }
    selected.push_back(&e);
  }
  return selected;
}

std::vector<EntryResult> run_batch(const std::vector<const launch::ManifestEntry*>& entries,
                                   const EntryRunner& runner, const BatchOptions& options) {
  std::vector<EntryResult> results(entries.size());
  std::mutex out_mutex;
  std::atomic<size_t> done{0};
  auto run_one = [&](size_t i) {
    const auto& entry = *entries[i];
    if (options.progress && options.terminal) {
      std::lock_guard guard(out_mutex);
      *options.progress << fmt::format("\r\033[K[{}/{}] {} ...", done.load(), entries.size(), entry.name) << std::flush;
    }
    EntryResult r;
    try {
      r = runner(entry);
    } catch (const std::bad_alloc&) {
      r.name = entry.name;
      r.expected = entry.expected;
      r.kind = entry.kind == launch::EntryKind::Equivalence ? "equivalence" : "race_check";
      r.verdict = Verdict::Unknown;
      r.detail = "out of memory";
    } catch (const std::exception& e) {
      r.name = entry.name;
      r.expected = entry.expected;
      r.kind = entry.kind == launch::EntryKind::Equivalence ? "equivalence" : "race_check";
      r.verdict = Verdict::Error;
      r.detail = fmt::format("internal error: {}", e.what());
    }
    results[i] = std::move(r);
    const size_t n = ++done;
    if (options.progress) {
      std::lock_guard guard(out_mutex);
      if (options.terminal) *options.progress << "\r\033[K";
      print_result_line(*options.progress, results[i], options.terminal);
      *options.progress << std::flush;
      if (options.terminal && n < entries.size()) *options.progress << fmt::format("[{}/{}]", n, entries.size()) << std::flush;
    }
  };
  const int jobs = std::max(1, options.jobs);
  if (jobs == 1) {
    for (size_t i = 0; i < entries.size(); ++i) run_one(i);
  } else {
    tbb::task_arena arena(jobs);
    arena.execute([&] {
      tbb::parallel_for(size_t{0}, entries.size(), size_t{1}, [&](size_t i) { run_one(i); });
    });
  }
  if (options.progress && options.terminal) *options.progress << "\r\033[K" << std::flush;
  return results;
}

void print_result_line(std::ostream& out, const EntryResult& r, bool color) {
  const bool ok = r.matches();
  const char* on = color ? (ok ? "\033[32m" : "\033[31m") : "";
  const char* off = color ? "\033[0m" : "";
  out << fmt::format("{}{:<18}{} {}  ({:.3f}s)", on, to_string(r.verdict), off, r.name, r.seconds);
  if (r.expected && !ok) out << fmt::format("  expected {}", to_string(*r.expected));
  out << "\n";
  if (!r.detail.empty() && (r.verdict != Verdict::Equivalent && r.verdict != Verdict::RaceFree)) {
    out << "    " << r.detail << "\n";
  }
  if (r.counterexample) {
    const auto& c = *r.counterexample;
    out << fmt::format("    counterexample: {} = {} (reference) vs {} (optimized)", c.element, c.reference_value,
                       c.optimized_value);
    if (!c.inputs.empty()) {
      out << " with ";
      size_t shown = 0;
      for (const auto& [k, v] : c.inputs) {
        if (shown++ == 6) {
          out << fmt::format(", ... ({} inputs)", c.inputs.size());
          break;
        }
        out << (shown > 1 ? ", " : "") << k << "=" << v;
      }
    }
    out << "\n";
  }
}

void print_summary(std::ostream& out, const std::vector<EntryResult>& results, bool color) {
  std::map<std::string, size_t> by_verdict;
  size_t matched = 0;
  double seconds = 0;
  for (const auto& r : results) {
    ++by_verdict[std::string(to_string(r.verdict))];
    matched += r.matches();
    seconds += r.seconds;
  }
  out << fmt::format("\n{} entries, {} as expected, {} not", results.size(), matched, results.size() - matched);
  std::string parts;
  for (const auto& [v, n] : by_verdict) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", n, v);
  out << " (" << parts << "); " << fmt::format("{:.2f}s of work", seconds) << "\n";
  (void)color;
}

int exit_status(const std::vector<EntryResult>& results) {
  bool bad = false, mismatch = false;
  for (const auto& r : results) {
    bad |= r.bad_input;
    mismatch |= !r.matches();
  }
  if (bad) return cli::kBadInput;
  return mismatch ? cli::kMismatch : cli::kSuccess;
}

}  // namespace volta::driver
