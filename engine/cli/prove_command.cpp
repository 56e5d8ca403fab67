// volta-eg prove: the equivalence of one pair (flags or --pair FILE) or of every entry of a
// manifest (--batch; race_check entries run the safety check).
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "engine/cli/commands.hpp"
#include "engine/cli/exit_codes.hpp"
#include "engine/cli/kernel_flags.hpp"
#include "engine/driver/batch.hpp"
#include "engine/driver/report_json.hpp"
#include "engine/driver/safety_check.hpp"
#include "engine/prove/pair_prover.hpp"

namespace volta::cli {

namespace {

struct ProveArgs {
  std::string batch;
  std::string pair;
  std::string report;
  std::string filter;
  int jobs = 1;
  double timeout = 0;
  uint64_t max_instructions = 0;
  bool no_reuse = false;
  KernelFlags ref;
  KernelFlags opt;
  std::vector<std::string> check_arrays;
};

int run_prove(const ProveArgs& args) {
  driver::KernelCache cache;
  prove::ProveOptions options;
  options.run.max_instructions = args.max_instructions;
  options.timeout_seconds = args.timeout;
  options.reuse_templates = !args.no_reuse;
  driver::CheckOptions check;
  check.run = options.run;
  const bool tty = isatty(STDOUT_FILENO) != 0;
  auto run_entry = [&](const launch::ManifestEntry& e) {
    if (e.kind == launch::EntryKind::RaceCheck) return driver::check_kernel_entry(e, cache, check);
    return prove::prove_pair_entry(e, cache, options);
  };
  auto write_report = [&](const std::vector<driver::EntryResult>& results, const std::string& manifest) {
    if (args.report.empty()) return true;
    std::ofstream out(args.report);
    if (!out) {
      std::cerr << fmt::format("volta-eg: error: cannot write report '{}'\n", args.report);
      return false;
    }
    out << driver::report_json(results, manifest).dump(2) << "\n";
    return true;
  };

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
    auto results = driver::run_batch(driver::select_entries(*m.manifest, batch), run_entry, batch);
    driver::print_summary(std::cout, results, tty);
    if (!write_report(results, args.batch)) return kBadInput;
    return driver::exit_status(results);
  }

  launch::ManifestEntry entry;
  entry.kind = launch::EntryKind::Equivalence;
  if (!args.pair.empty()) {
    std::ifstream in(args.pair);
    if (!in) {
      std::cerr << fmt::format("{}: error: cannot read pair file\n", args.pair);
      return kBadInput;
    }
    std::stringstream text;
    text << "{\"benchmarks\": [" << in.rdbuf() << "]}";
    auto m = launch::parse_manifest(text.str(), args.pair);
    if (!m.manifest || m.manifest->entries.size() != 1) {
      for (const auto& d : m.diagnostics) std::cerr << d.render() << "\n";
      return kBadInput;
    }
    entry = m.manifest->entries[0];
    if (!entry.error.empty()) {
      std::cerr << fmt::format("{}: error: {}\n", args.pair, entry.error);
      return kBadInput;
    }
  } else {
    std::string error;
    auto ref = args.ref.config("ref-", error);
    std::optional<launch::KernelConfig> opt;
    if (ref) opt = args.opt.config("opt-", error);
    if (!ref || !opt) {
      std::cerr << "volta-eg: error: " << error << "\n";
      return kBadInput;
    }
    entry.reference = *ref;
    entry.optimized = *opt;
    entry.name = fmt::format("({}, {})", ref->entry, opt->entry);
    entry.check_arrays = args.check_arrays;
    for (const auto& name : entry.check_arrays) {
      if (!ref->find_array(name) || !opt->find_array(name)) {
        std::cerr << fmt::format("volta-eg: error: --check-array: \"{}\" is not an array of both kernels\n", name);
        return kBadInput;
      }
    }
  }
  auto result = run_entry(entry);
  if (result.bad_input) {
    std::cerr << "volta-eg: error: " << result.detail << "\n";
    return kBadInput;
  }
  driver::print_result_line(std::cout, result, tty);
  if (!write_report({result}, args.pair)) return kBadInput;
  return result.matches() ? kSuccess : kMismatch;
}

}  // namespace

void register_prove_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ProveArgs>();
  CLI::App* cmd = app.add_subcommand("prove", "prove that two kernels compute the same outputs over the reals");
  cmd->add_option("--batch", args->batch, "run every entry of this manifest");
  cmd->add_option("--pair", args->pair, "one pair given as a JSON entry object (manifest schema)");
  cmd->add_option("--report", args->report, "write a JSON report here");
  cmd->add_option("--filter", args->filter, "only entries whose name matches this regular expression");
  cmd->add_option("-j,--jobs", args->jobs, "entries run in parallel")->capture_default_str();
  cmd->add_option("--timeout", args->timeout, "seconds per entry (UNKNOWN when exceeded)");
  cmd->add_option("--max-instructions", args->max_instructions, "instruction budget per kernel");
  cmd->add_flag("--no-reuse", args->no_reuse, "prove every element directly (no template reuse)");
  cmd->add_option("--check-array", args->check_arrays, "compare only these arrays (repeatable)");
  args->ref.add_to(*cmd, "ref-", "reference kernel");
  args->opt.add_to(*cmd, "opt-", "optimized kernel");
  cmd->callback([args, &exit_code] { exit_code = run_prove(*args); });
}

}  // namespace volta::cli
