// The flags `prove` and `check` share: the manifest and its selection (--batch, --filter,
// --shard, -j), the reports (--report, --junit, --sarif), the resource guards (--timeout,
// --max-memory, --max-instructions) and the terminal (--color). resolve() validates them into
// what the driver takes, or says what is wrong with which flag.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "engine/cli/report_outputs.hpp"
#include "engine/driver/batch.hpp"

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
  std::string color = "auto";

  void add_to(CLI::App& app);

  // The driver's options (progress on stdout); nullopt with `error` ("--shard: ...") when a flag
  // is invalid.
  std::optional<driver::BatchOptions> resolve(std::string& error) const;
  // The guards and settings as the report's `options` object.
  nlohmann::json options_json() const;
};

// Whether stdout gets ANSI colors for `--color auto|always|never` (auto: a terminal, and
// neither NO_COLOR nor TERM=dumb in the environment).
bool use_color(const std::string& mode);
bool stdout_is_terminal();

} // namespace volta::cli
