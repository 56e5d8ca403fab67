// volta-eg check: the safety check of one kernel (flags) or of every race_check entry of a
// manifest (--batch).
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>

#include "engine/cli/commands.hpp"
#include "engine/cli/exit_codes.hpp"
#include "engine/cli/kernel_flags.hpp"
#include "engine/driver/batch.hpp"
#include "engine/driver/report_json.hpp"
#include "engine/driver/safety_check.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::cli {

namespace {

struct CheckArgs {
  std::string batch;
  std::string report;
  std::string filter;
  int jobs = 1;
  uint64_t max_instructions = 0;
  size_t print_outputs = 0;
  KernelFlags kernel;
};

bool write_report(const std::string& path, const std::vector<driver::EntryResult>& results, const std::string& manifest) {
  std::ofstream out(path);
  if (!out) {
    std::cerr << fmt::format("volta-eg: error: cannot write report '{}'\n", path);
    return false;
  }
  out << driver::report_json(results, manifest).dump(2) << "\n";
  return true;
}

int run_check(const CheckArgs& args) {
  driver::KernelCache cache;
  driver::CheckOptions options;
  options.run.max_instructions = args.max_instructions;
  const bool tty = isatty(STDOUT_FILENO) != 0;
  if (!args.batch.empty()) {
    auto m = launch::read_manifest(args.batch);
    if (!m.manifest) {
      for (const auto& d : m.diagnostics) std::cerr << d.render() << "\n";
      return kBadInput;
    }
    driver::BatchOptions batch;
    batch.jobs = args.jobs;
    if (!args.filter.empty()) {
      try {
        batch.filter = std::regex(args.filter);
      } catch (const std::regex_error& e) {
        std::cerr << fmt::format("volta-eg: error: --filter: invalid regular expression: {}\n", e.what());
        return kBadInput;
      }
    }
    batch.progress = &std::cout;
    batch.terminal = tty;
    std::vector<const launch::ManifestEntry*> entries;
    for (const auto* e : driver::select_entries(*m.manifest, batch)) {
      if (e->kind == launch::EntryKind::RaceCheck || !e->error.empty()) entries.push_back(e);
    }
    auto results = driver::run_batch(
        entries, [&](const launch::ManifestEntry& e) { return driver::check_kernel_entry(e, cache, options); }, batch);
    driver::print_summary(std::cout, results, tty);
    if (!args.report.empty() && !write_report(args.report, results, args.batch)) return kBadInput;
    return driver::exit_status(results);
  }
  std::string error;
  auto config = args.kernel.config("", error);
  if (!config) {
    std::cerr << "volta-eg: error: " << error << "\n";
    return kBadInput;
  }
  launch::ManifestEntry entry;
  entry.name = config->entry;
  entry.kind = launch::EntryKind::RaceCheck;
  entry.kernel = *config;
  symbolic::ExprStore store;
  driver::EntryResult result;
  result.name = entry.name;
  result.kind = "race_check";
  auto run = driver::execute_config(*config, "kernel", cache, store, options.run, result);
  if (run && !run->failure) {
    if (auto f = driver::output_failure(*run, store, false)) {
      result.verdict = f->verdict;
      result.detail = f->message;
      result.failure = f;
    } else {
      result.verdict = Verdict::RaceFree;
      result.detail = "no data race, no out-of-bounds access, no deadlock, no uninitialized output";
    }
  }
  if (!run) {
    auto loaded = cache.load(config->ptx_path, config->entry);
    for (const auto& d : loaded.diagnostics) std::cerr << d.render() << "\n";
    return kBadInput;
  }
  driver::print_result_line(std::cout, result, tty);
  if (args.print_outputs > 0 && run && !run->failure) {
    for (const auto& out : run->outputs) {
      size_t shown = 0;
      for (const auto& [index, value] : out.elements) {
        if (shown++ == args.print_outputs) break;
        std::cout << fmt::format("  {}[{}] = {}\n", out.name, index, symbolic::to_sexpr(store, value, 400));
      }
    }
  }
  if (!args.report.empty() && !write_report(args.report, {result}, "")) return kBadInput;
  if (result.bad_input) return kBadInput;
  return result.matches() ? kSuccess : kMismatch;
}

}  // namespace

void register_check_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand("check", "check one kernel for data races, out-of-bounds accesses, deadlocks "
                                              "and uninitialized values");
  cmd->add_option("--batch", args->batch, "run every race_check entry of this manifest");
  cmd->add_option("--report", args->report, "write a JSON report here");
  cmd->add_option("--filter", args->filter, "only entries whose name matches this regular expression");
  cmd->add_option("-j,--jobs", args->jobs, "entries run in parallel")->capture_default_str();
  cmd->add_option("--max-instructions", args->max_instructions, "stop with UNKNOWN after this many executed instructions");
  cmd->add_option("--print-outputs", args->print_outputs, "print the expressions of the first N elements of each output");
  args->kernel.add_to(*cmd, "", "kernel");
  cmd->callback([args, &exit_code] { exit_code = run_check(*args); });
}

}  // namespace volta::cli
