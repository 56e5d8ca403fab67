// volta-eg merge: combines the JSON reports of the shards of one batch (`--shard I/N`) into the
// report of the whole batch, prints its summary table, writes it (and, on request, its JUnit
// and SARIF views), and exits with the status the whole batch would have had.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>

#include "engine/cli/batch_flags.hpp"
#include "engine/cli/commands.hpp"
#include "engine/cli/report_outputs.hpp"
#include "engine/diagnostic_reporter.hpp"
#include "engine/exit_status.hpp"
#include "engine/report/report_json.hpp"
#include "engine/report/report_merge.hpp"
#include "engine/report/summary_table.hpp"

namespace volta::cli {

namespace {

struct MergeArgs {
  std::vector<std::string> inputs;
  ReportPaths reports;
  bool allow_partial = false;
  bool quiet = false;
  std::string color = "auto";
};

int run_merge(const MergeArgs& args) {
  DiagnosticReporter& diagnostics = DiagnosticReporter::standard();
  if (args.color != "auto" && args.color != "always" && args.color != "never") {
    diagnostics.error(
        fmt::format("--color: expected auto, always or never, got \"{}\"", args.color));
    return kBadInput;
  }
  if (auto conflict = report_path_conflict(args.reports, args.inputs); !conflict.empty()) {
    diagnostics.error(conflict);
    return kBadInput;
  }
  std::vector<report::LoadedReport> loaded;
  for (const auto& path : args.inputs) {
    auto report = report::load_report(path);
    if (!report) {
      diagnostics.error(report.error());
      return kBadInput;
    }
    loaded.push_back(std::move(*report));
  }
  auto outcome = report::merge_reports(loaded, args.allow_partial);
  for (const auto& w : outcome.warnings)
    diagnostics.warning(w);
  for (const auto& e : outcome.errors)
    diagnostics.error(e);
  if (!outcome.report)
    return kBadInput;
  if (!args.quiet) {
    // With `--report -` stdout holds the JSON alone.
    const bool to_stderr = args.reports.json == "-";
    report::print_summary_table(to_stderr ? std::cerr : std::cout, *outcome.report,
                                use_color(args.color, to_stderr ? 2 : 1));
  }
  std::cout.flush();
  if (!write_reports(args.reports, *outcome.report))
    return kBadInput;
  return report::exit_status((*outcome.report)["results"]);
}

} // namespace

void register_merge_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "merge", "combine the JSON reports of the shards of one batch into one report");
  cmd->add_option("reports", args->inputs,
                  "JSON reports written with --report by `prove`/`check --shard I/N`")
      ->required();
  cmd->add_option("--report", args->reports.json, "write the merged JSON report here");
  cmd->add_option("--junit", args->reports.junit, "write the merged JUnit XML report here");
  cmd->add_option("--sarif", args->reports.sarif, "write the merged SARIF 2.1.0 log here");
  cmd->add_flag("--allow-partial", args->allow_partial, "merge even when some shards are missing");
  cmd->add_flag("-q,--quiet", args->quiet, "do not print the summary table");
  cmd->add_option("--color", args->color, "ANSI colors: auto, always or never")
      ->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = run_merge(*args); });
}

} // namespace volta::cli
