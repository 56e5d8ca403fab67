#include "engine/cli/batch_flags.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>
#include <unistd.h>

namespace volta::cli {

void BatchFlags::add_to(CLI::App& app) {
  app.add_option("--batch", batch,
                 "run the entries of this manifest (JSON, the schema of benchmarks.json)");
  app.add_option("--filter", filter,
                 "only entries whose name matches this regular expression (ECMAScript, search)");
  app.add_option("--shard", shard,
                 "run shard I of N (0 <= I < N): every N-th selected entry, starting at the I-th");
  app.add_option("-j,--jobs", jobs, "entries run in parallel")->capture_default_str();
  app.add_option("--report", reports.json,
                 "write the JSON report here (docs/report-schema.md); '-': to stdout, and "
                 "everything else to stderr");
  app.add_option("--junit", reports.junit,
                 "write a JUnit XML report here (one test case per entry)");
  app.add_option("--sarif", reports.sarif,
                 "write a SARIF 2.1.0 log here (races, out-of-bounds accesses, ...)");
  app.add_option("--timeout", timeout,
                 "seconds per entry; past it the entry ends UNKNOWN (0: none)");
  app.add_option("--max-memory", max_memory_gib,
                 "GiB of memory for the batch; an entry that needs more ends UNKNOWN (0: none)");
  app.add_option(
      "--max-instructions", max_instructions,
      "executed thread-instructions per kernel; past it the entry ends UNKNOWN (0: none)");
  app.add_flag("--benign-races", benign_races,
               "stores of provably equal values (the same bits) to one location by unordered "
               "threads are no race (the default; GPUVerify's default)");
  app.add_flag("--strict-races", strict_races,
               "every unordered pair of writes to one location is a data race, equal values or "
               "not (GPUVerify's --no-benign); a manifest entry's \"races\" overrides either");
  app.add_flag("--assume-converged-waits", assume_converged_waits,
               "assume that the lanes of a warp that pass an mbarrier wait together (every live "
               "lane, one instruction) pass it together on the GPU, as after a reconvergence; "
               "PTX does not promise it, and FlashAttention-3's producer warp relies on it "
               "(docs/semantics.md); a manifest entry's \"assume\" overrides it");
  app.add_option("--color", color, "ANSI colors: auto (a terminal), always or never")
      ->capture_default_str();
  app.add_flag("-q,--quiet", quiet, "print no result lines and no summary (errors only)");
  app.add_flag("--no-progress", no_progress,
               "no live progress line on a terminal (result lines still print)");
}

std::ostream* BatchFlags::human_output() const {
  if (quiet)
    return nullptr;
  return reports.json == "-" ? &std::cerr : &std::cout;
}

Expected<batch::BatchOptions> BatchFlags::resolve() const {
  batch::BatchOptions options;
  if (jobs < 1 || jobs > 4096) {
    return Unexpected{
        fmt::format("-j/--jobs: expected a number of workers from 1 to 4096, got {}", jobs)};
  }
  options.jobs = jobs;
  if (!std::isfinite(timeout) || timeout < 0) {
    return Unexpected{fmt::format("--timeout: expected seconds >= 0, got {}", timeout)};
  }
  options.timeout_seconds = timeout;
  if (!std::isfinite(max_memory_gib) || max_memory_gib < 0 || max_memory_gib > 1 << 20) {
    return Unexpected{fmt::format("--max-memory: expected GiB >= 0, got {}", max_memory_gib)};
  }
  options.max_memory_bytes =
      static_cast<uint64_t>(max_memory_gib * static_cast<double>(1ull << 30));
  if (max_memory_gib > 0 && options.max_memory_bytes == 0)
    options.max_memory_bytes = 1;
  if (benign_races && strict_races) {
    return Unexpected{"--benign-races and --strict-races: give one race rule, not both"};
  }
  if (color != "auto" && color != "always" && color != "never") {
    return Unexpected{fmt::format("--color: expected auto, always or never, got \"{}\"", color)};
  }
  if (!filter.empty()) {
    try {
      options.filter = std::regex(filter);
    } catch (const std::regex_error& e) {
      return Unexpected{
          fmt::format("--filter: invalid regular expression \"{}\": {}", filter, e.what())};
    }
  }
  if (!shard.empty()) {
    auto parsed = batch::parse_shard(shard);
    if (!parsed)
      return Unexpected{parsed.error()};
    options.shard = *parsed;
    if (batch.empty()) {
      return Unexpected{"--shard: needs --batch"};
    }
  }
  if (!filter.empty() && batch.empty()) {
    return Unexpected{"--filter: needs --batch"};
  }
  if (reports.json == "-" && (reports.junit == "-" || reports.sarif == "-")) {
    return Unexpected{"only --report may write to stdout ('-')"};
  }
  if (reports.junit == "-" || reports.sarif == "-") {
    return Unexpected{"--junit/--sarif: '-' (stdout) is for --report only; give a file"};
  }
  options.progress = human_output();
  const int fd = options.progress == &std::cerr ? STDERR_FILENO : STDOUT_FILENO;
  options.terminal = !no_progress && is_smart_terminal(fd);
  // A CI log sees a line every few seconds while a long entry runs (stderr, not a terminal).
  if (!no_progress && !quiet && isatty(STDERR_FILENO) == 0)
    options.heartbeat = &std::cerr;
  options.color = use_color(color, fd);
  return options;
}

nlohmann::json BatchFlags::options_json() const {
  return {{"timeout_seconds", timeout},
          {"max_memory_gib", max_memory_gib},
          {"max_instructions", max_instructions},
          {"races", strict_races ? "strict" : "benign"},
          {"assume", assume_converged_waits ? nlohmann::json::array({"converged-waits"})
                                            : nlohmann::json::array()}};
}

bool stdout_is_terminal() {
  return isatty(STDOUT_FILENO) != 0;
}

bool is_smart_terminal(int fd) {
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string(term) == "dumb")
    return false;
  return isatty(fd) != 0;
}

bool use_color(const std::string& mode, int fd) {
  if (mode == "always")
    return true;
  if (mode == "never")
    return false;
  // no-color.org: "when present and not an empty string".
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0')
    return false;
  return is_smart_terminal(fd);
}

} // namespace volta::cli
