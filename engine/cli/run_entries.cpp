#include "engine/cli/run_entries.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fmt/format.h>
#include <iostream>
#include <unistd.h>

#include "engine/batch/memory_limit.hpp"
#include "engine/diagnostic_reporter.hpp"
#include "engine/exit_status.hpp"
#include "engine/report/summary_table.hpp"

namespace volta::cli {

namespace {

// The signal number of the first SIGINT/SIGTERM of the batch (0: none). Lock-free, so that the
// handler may set it.
std::atomic<int> g_interrupt{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_interrupt(int signal) {
  // A second signal: the user does not want to wait for the reports.
  if (g_interrupt.load() != 0)
    _exit(128 + signal);
  g_interrupt.store(signal);
}

// While a batch runs, SIGINT and SIGTERM stop it cooperatively (run_batch starts no further
// entry and cancels the running ones) so that the finished results are still reported.
class InterruptHandlers {
public:
  InterruptHandlers() {
    g_interrupt.store(0);
    install(SIGINT, old_int_, true);
    install(SIGTERM, old_term_, false);
  }
  ~InterruptHandlers() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  InterruptHandlers(const InterruptHandlers&) = delete;
  InterruptHandlers& operator=(const InterruptHandlers&) = delete;

private:
  static void install(int signal, struct sigaction& old, bool keep_ignored) {
    sigaction(signal, nullptr, &old);
    // A shell starts background jobs with SIGINT ignored (`volta-eg ... &` must survive the
    // Ctrl-C meant for the foreground): keep it so.
    if (keep_ignored && old.sa_handler == SIG_IGN)
      return;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(signal, &action, nullptr);
  }
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

std::string signal_name(int signal) {
  if (signal == SIGINT)
    return "SIGINT";
  if (signal == SIGTERM)
    return "SIGTERM";
  return fmt::format("signal {}", signal);
}

} // namespace

int run_entries(RunRequest& request) {
  {
    std::vector<std::string> inputs = {request.info.manifest};
    for (const auto* e : request.entries) {
      for (const auto* k : {&e->reference, &e->optimized, &e->kernel})
        inputs.push_back(k->ptx_path);
    }
    if (auto conflict = report_path_conflict(request.reports, inputs); !conflict.empty()) {
      DiagnosticReporter::standard().error(conflict);
      return kBadInput;
    }
  }
  if (request.options.max_memory_bytes > 0) {
    // --max-memory is per entry: with -j N up to N entries hold their budget at once.
    const uint64_t jobs = static_cast<uint64_t>(std::max(1, request.options.jobs));
    const std::string note = batch::install_address_space_limit(
        std::min(request.options.max_memory_bytes, (uint64_t{1} << 50) / jobs) * jobs);
    if (!note.empty())
      DiagnosticReporter::standard().note("--max-memory: " + note);
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<entry::EntryResult> results;
  {
    InterruptHandlers handlers;
    request.options.interrupt = &g_interrupt;
    results = batch::run_batch(request.entries, request.runner, request.options);
    request.options.interrupt = nullptr;
  }
  const int interrupt = g_interrupt.load();
  if (interrupt != 0)
    request.info.interrupted_by = signal_name(interrupt);
  request.info.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  nlohmann::json report = report::report_json(results, request.info);
  if (request.cache) {
    report["cache"] = {{"hits", request.cache->hits()},
                       {"misses", request.cache->misses()},
                       {"stored", request.cache->stored()},
                       {"ignored", request.cache->ignored()}};
    if (request.runs) {
      report["cache"]["executions"] = {{"hits", request.runs->hits()},
                                       {"misses", request.runs->misses()},
                                       {"stored", request.runs->stored()},
                                       {"ignored", request.runs->ignored()},
                                       {"too_large", request.runs->too_large()}};
    }
    if (request.entry_cache) {
      report["cache"]["entries"] = {{"hits", request.entry_cache->hits()},
                                    {"misses", request.entry_cache->misses()},
                                    {"stored", request.entry_cache->stored()},
                                    {"ignored", request.entry_cache->ignored()}};
    }
  }
  std::cout.flush();
  // Bad input again on stderr, located, in manifest order: what a CI log greps for.
  for (const auto& r : results) {
    if (!r.bad_input)
      continue;
    if (request.single) {
      // A located detail (`k.ptx:8:8: error: ...`) is printed as the diagnostic it is.
      DiagnosticReporter::standard().error(r.detail);
    } else {
      DiagnosticReporter::standard().report(
          ptx::Severity::Error, request.info.manifest, r.input_where,
          fmt::format("entry #{} \"{}\": {}", r.index, r.name, r.detail));
    }
  }
  if (!request.single && request.human != nullptr) {
    std::ostream& out = *request.human;
    report::print_summary_table(out, report, request.options.color);
    if (request.cache) {
      const auto plural = [](uint64_t n, const char* one, const char* many) {
        return fmt::format("{} {}", n, n == 1 ? one : many);
      };
      out << "proof cache: " << plural(request.cache->hits(), "hit", "hits") << ", "
          << plural(request.cache->stored(), "template stored", "templates stored");
      if (request.entry_cache)
        out << "; " << plural(request.entry_cache->hits(), "entry answered", "entries answered")
            << " from the cache";
      if (request.runs) {
        out << "; " << plural(request.runs->hits(), "kernel run reused", "kernel runs reused")
            << ", " << plural(request.runs->stored(), "run stored", "runs stored");
      }
      const uint64_t ignored = request.cache->ignored() +
                               (request.runs ? request.runs->ignored() : 0) +
                               (request.entry_cache ? request.entry_cache->ignored() : 0);
      if (ignored > 0)
        out << ", " << plural(ignored, "damaged file ignored", "damaged files ignored");
      out << "\n";
    }
  }
  if (request.human != nullptr)
    request.human->flush();
  if (interrupt != 0)
    report["summary"]["exit_status"] = 128 + interrupt;
  const bool written = write_reports(request.reports, report);
  if (interrupt != 0) {
    size_t not_run = 0;
    for (const auto& r : results)
      not_run += r.not_run ? 1 : 0;
    DiagnosticReporter::standard().status(
        fmt::format("interrupted by {}: {} of {} entries finished, {} not run{}",
                    signal_name(interrupt), results.size() - not_run, results.size(), not_run,
                    request.reports.any() ? "; the reports hold the finished ones" : ""));
    return 128 + interrupt;
  }
  if (!written)
    return kBadInput;
  return report::exit_status(report["results"]);
}

} // namespace volta::cli
