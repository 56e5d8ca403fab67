// volta-eg check: the safety check of one kernel (flags) or of every race_check entry of a
// manifest (--batch).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>

#include "engine/cli/batch_flags.hpp"
#include "engine/cli/commands.hpp"
#include "engine/cli/kernel_flags.hpp"
#include "engine/cli/manifest_input.hpp"
#include "engine/cli/run_entries.hpp"
#include "engine/diagnostic_reporter.hpp"
#include "engine/entry/race_check_entry.hpp"
#include "engine/exit_status.hpp"
#include "engine/report/result_line.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::cli {

namespace {

struct CheckArgs {
  BatchFlags common;
  size_t print_outputs = 0;
  bool no_stream = false;
  KernelFlags kernel;
};

// One kernel, with the expressions of its first output elements printed (a debugging aid: no
// guards but --max-instructions, no reports).
int check_and_print(const CheckArgs& args, const launch::KernelConfig& config, bool color) {
  exec::KernelCache cache;
  entry::CheckOptions options;
  options.run.max_instructions = args.common.max_instructions;
  options.run.benign_races = !args.common.strict_races;
  options.run.converged_waits = args.common.assume_converged_waits;
  entry::RaceCheck check = entry::check_race(config, cache, options);
  entry::EntryResult& result = check.result;
  result.name = config.entry;
  if (!check.run) {
    DiagnosticReporter::standard().error(result.detail);
    return kBadInput;
  }
  const auto& run = check.run;
  const symbolic::ExprStore& store = *check.store;
  report::print_result_line(std::cout, result, report::LineStyle{color, 0});
  if (!run->failure) {
    for (const auto& out : run->outputs) {
      size_t shown = 0;
      for (const auto& [index, value] : out.elements) {
        if (shown++ == args.print_outputs)
          break;
        std::cout << fmt::format("  {}[{}] = {}\n", out.name, index,
                                 symbolic::to_sexpr(store, value, 400));
      }
    }
  }
  if (result.bad_input)
    return kBadInput;
  return result.matches() ? kSuccess : kMismatch;
}

int run_check(const CheckArgs& args) {
  DiagnosticReporter& diagnostics = DiagnosticReporter::standard();
  auto options = args.common.resolve();
  if (!options) {
    diagnostics.error(options.error());
    return kBadInput;
  }
  if (!args.common.batch.empty() && args.kernel.given()) {
    diagnostics.error("--batch runs a manifest: it does not combine with --ptx/--kernel");
    return kBadInput;
  }
  exec::KernelCache kernels;
  entry::CheckOptions check_options;
  check_options.run.max_instructions = args.common.max_instructions;
  check_options.run.benign_races = !args.common.strict_races;
  check_options.run.converged_waits = args.common.assume_converged_waits;
  check_options.stream = !args.no_stream;
  RunRequest request;
  request.options = *options;
  request.reports = args.common.reports;
  request.human = args.common.human_output();
  request.runner = [&](const launch::ManifestEntry& e, std::atomic<bool>& cancel) {
    entry::CheckOptions c = check_options;
    c.run.cancel = &cancel;
    return entry::check_race_entry(e, kernels, c);
  };
  request.info.command = "check";
  request.info.options = args.common.options_json();

  if (!args.common.batch.empty()) {
    auto manifest = load_manifest_selection(
        args.common, *options, request.info,
        [](const launch::ManifestEntry& e) { return e.kind == launch::EntryKind::RaceCheck; },
        "race_check");
    if (!manifest)
      return kBadInput;
    request.entries = manifest->entries;
    return run_entries(request);
  }
  auto config = args.kernel.config("");
  if (!config) {
    diagnostics.error(config.error());
    return kBadInput;
  }
  if (args.print_outputs > 0) {
    if (args.common.reports.any()) {
      diagnostics.error("--print-outputs does not combine with --report/--junit/--sarif");
      return kBadInput;
    }
    return check_and_print(args, *config, options->color);
  }
  launch::ManifestEntry entry;
  entry.name = config->entry;
  entry.kind = launch::EntryKind::RaceCheck;
  entry.kernel = *config;
  request.single = true;
  request.entries = {&entry};
  return run_entries(request);
}

} // namespace

void register_check_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand(
      "check", "check one kernel for data races, out-of-bounds accesses, deadlocks "
               "and uninitialized values");
  args->common.add_to(*cmd);
  cmd->add_option("--print-outputs", args->print_outputs,
                  "print the expressions of the first N elements of each output (one kernel)");
  cmd->add_flag("--no-stream", args->no_stream,
                "with all CTAs: check the whole grid at once, not a group of CTAs at a time "
                "(more memory; the same verdicts)");
  args->kernel.add_to(*cmd, "", "kernel");
  cmd->callback([args, &exit_code] { exit_code = run_check(*args); });
}

} // namespace volta::cli
