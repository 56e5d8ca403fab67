// The flags `prove` and `check` share: the manifest and its selection (--batch, --filter,
// --shard, -j), the reports (--report, --junit, --sarif), the resource guards (--timeout,
// --max-memory, --max-instructions), the race rule (--benign-races, --strict-races) and the
// terminal (--color). resolve() validates them into
// what the driver takes, or says what is wrong with which flag.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "engine/batch/batch.hpp"
#include "engine/cli/report_outputs.hpp"
#include "engine/expected.hpp"

namespace CLI {
class App;
}

namespace volta::cli {

struct BatchFlags {
  std::string batch;
  std::string filter;
  std::string shard;
  int jobs = 1;
  ReportPaths reports;
  double timeout = 0;
  double max_memory_gib = 0;
  uint64_t max_instructions = 0;
  // The race rule for stores of provably equal values (docs/semantics.md, "Synchronization"):
  // benign (the default) or strict; both flags given is an error.
  bool benign_races = false;
  bool strict_races = false;
  // Lanes of a warp that pass an mbarrier wait together pass it together on the GPU
  // (exec::RunOptions::converged_waits); a manifest entry's "assume" overrides it.
  bool assume_converged_waits = false;
  std::string color = "auto";
  bool quiet = false;       // no result lines, no summary table (errors still on stderr)
  bool no_progress = false; // no live progress line, even on a terminal

  void add_to(CLI::App& app);

  // Where the human-readable output goes: stdout, stderr when the JSON report goes to stdout
  // (`--report -`), nowhere with --quiet.
  std::ostream* human_output() const;
  // The driver's options (progress on human_output()), or why a flag is invalid ("--shard: ...").
  Expected<batch::BatchOptions> resolve() const;
  // The guards and settings as the report's `options` object.
  nlohmann::json options_json() const;
};

// Whether output gets ANSI colors for `--color auto|always|never` (auto: a terminal, NO_COLOR
// unset or empty (no-color.org), TERM not "dumb"). `fd`: the descriptor the output goes to.
bool use_color(const std::string& mode, int fd = 1);
bool stdout_is_terminal();
// Whether `fd` is a terminal that understands escape codes (not TERM=dumb).
bool is_smart_terminal(int fd);

} // namespace volta::cli
