// volta-eg prove: the equivalence of one pair (flags or --pair FILE) or of every entry of a
// manifest (--batch; race_check entries run the safety check).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "engine/batch/memory_limit.hpp"
#include "engine/batch/proof_cache_dir.hpp"
#include "engine/cli/batch_flags.hpp"
#include "engine/cli/commands.hpp"
#include "engine/cli/kernel_flags.hpp"
#include "engine/cli/manifest_input.hpp"
#include "engine/cli/rule_options.hpp"
#include "engine/cli/run_entries.hpp"
#include "engine/content_hash.hpp"
#include "engine/diagnostic_reporter.hpp"
#include "engine/emulate/counterexample_run.hpp"
#include "engine/entry/batch_runs.hpp"
#include "engine/entry/equivalence_entry.hpp"
#include "engine/entry/race_check_entry.hpp"
#include "engine/exit_status.hpp"
#include "engine/session/entry_runner.hpp"
#include "engine/smt/solver_worker.hpp"

namespace volta::cli {

namespace {

struct ProveArgs {
  BatchFlags common;
  std::string pair;
  std::string cache;
  uint64_t max_terms = 0;
  unsigned z3_timeout_ms = 10'000;
  bool no_z3 = false;
  bool mutual = false;
  bool stop_at_first_unknown = false;
  bool no_reuse = false;
  bool no_shared_runs = false;
  bool no_stream = false;
  bool no_cross_check = false;
  uint32_t cross_check_inputs = 3;
  double cross_check_limit = 0.05;
  std::string float_tolerance; // "rel=1e-3,abs=1e-5"; empty: none
  std::string input_range;     // "LO,HI"; empty: none
  RuleFlags rules;
  KernelFlags ref;
  KernelFlags opt;
  std::vector<std::string> check_arrays;
};

// The pair given by --pair FILE or by the --ref-* / --opt-* flags; nullopt after a message.
std::optional<launch::ManifestEntry> single_pair(const ProveArgs& args) {
  launch::ManifestEntry entry;
  entry.kind = launch::EntryKind::Equivalence;
  if (!args.pair.empty()) {
    // Flags beside --pair would be ignored without a word.
    if (args.ref.given() || args.opt.given()) {
      DiagnosticReporter::standard().error(
          "--pair gives both kernels: it does not combine with --ref-*/--opt-*");
      return std::nullopt;
    }
    if (!args.check_arrays.empty()) {
      DiagnosticReporter::standard().error("--pair gives the compared arrays (\"check_arrays\"): "
                                           "it does not combine with --check-array");
      return std::nullopt;
    }
    return read_pair_file(args.pair);
  }
  auto ref = args.ref.config("ref-");
  if (!ref) {
    DiagnosticReporter::standard().error(ref.error());
    return std::nullopt;
  }
  auto opt = args.opt.config("opt-");
  if (!opt) {
    DiagnosticReporter::standard().error(opt.error());
    return std::nullopt;
  }
  entry.reference = *ref;
  entry.optimized = *opt;
  entry.name = fmt::format("({}, {})", ref->entry, opt->entry);
  entry.check_arrays = args.check_arrays;
  for (const auto& name : entry.check_arrays) {
    if (!ref->find_array(name) || !opt->find_array(name)) {
      DiagnosticReporter::standard().error(
          fmt::format("--check-array: \"{}\" is not an array of both kernels", name));
      return std::nullopt;
    }
  }
  return entry;
}

int run_prove(const ProveArgs& args) {
  // Z3 queries run in children of a worker forked now, while this process is small, rather than
  // in forks of a process that may hold gigabytes of expressions by then.
  if (!args.no_z3)
    smt::start_solver_worker();
  DiagnosticReporter& diagnostics = DiagnosticReporter::standard();
  auto options = args.common.resolve();
  if (!options) {
    diagnostics.error(options.error());
    return kBadInput;
  }
  std::unique_ptr<batch::DirectoryProofCache> cache;
  std::unique_ptr<batch::DirectoryRunCache> runs;
  std::unique_ptr<batch::EntryCache> entries;
  if (!args.cache.empty()) {
    auto opened_proofs = batch::DirectoryProofCache::open(args.cache, &diagnostics);
    if (!opened_proofs) {
      diagnostics.error(opened_proofs.error());
      return kBadInput;
    }
    auto opened_runs = batch::DirectoryRunCache::open(args.cache, &diagnostics);
    if (!opened_runs) {
      diagnostics.error(opened_runs.error());
      return kBadInput;
    }
    auto opened_entries = batch::EntryCache::open(args.cache, &diagnostics);
    if (!opened_entries) {
      diagnostics.error(opened_entries.error());
      return kBadInput;
    }
    cache = std::move(*opened_proofs);
    runs = std::move(*opened_runs);
    entries = std::move(*opened_entries);
  }
  if (!args.common.batch.empty() && (!args.pair.empty() || args.ref.given() || args.opt.given())) {
    diagnostics.error(
        "--batch runs a manifest: it does not combine with --pair or --ref-*/--opt-*");
    return kBadInput;
  }

  std::optional<FloatTolerance> tolerance;
  if (!args.float_tolerance.empty()) {
    auto parsed = launch::parse_float_tolerance(args.float_tolerance);
    if (!parsed) {
      DiagnosticReporter::standard().error("--float-tolerance: " + parsed.error());
      return kBadInput;
    }
    // The tolerance is held against the cross-check's measurement: without it, never checked.
    if (args.no_cross_check) {
      DiagnosticReporter::standard().error(
          "--float-tolerance is checked on the emulator cross-check: it does not combine with "
          "--no-cross-check");
      return kBadInput;
    }
    tolerance = *parsed;
  }
  std::optional<std::pair<double, double>> input_range;
  if (!args.input_range.empty()) {
    // LO,HI: two finite numbers, LO <= HI (the manifest's "range" of an array).
    const auto comma = args.input_range.find(',');
    double lo = 0, hi = 0;
    bool ok = comma != std::string::npos;
    if (ok) {
      try {
        size_t used_lo = 0, used_hi = 0;
        const std::string a = args.input_range.substr(0, comma),
                          b = args.input_range.substr(comma + 1);
        lo = std::stod(a, &used_lo);
        hi = std::stod(b, &used_hi);
        ok = used_lo == a.size() && used_hi == b.size() && std::isfinite(lo) && std::isfinite(hi) &&
             lo <= hi;
      } catch (const std::exception&) {
        ok = false;
      }
    }
    if (!ok) {
      DiagnosticReporter::standard().error("--input-range: expected LO,HI, two finite numbers "
                                           "with LO <= HI, got \"" +
                                           args.input_range + "\"");
      return kBadInput;
    }
    input_range = std::make_pair(lo, hi);
  }
  auto library = args.rules.load(args.z3_timeout_ms, !args.no_z3);
  if (!library)
    return kBadInput;
  exec::KernelCache kernels;
  entry::ProveOptions prove_options;
  args.rules.apply(prove_options, *library);
  prove_options.run.max_instructions = args.common.max_instructions;
  prove_options.run.benign_races = !args.common.strict_races;
  prove_options.run.converged_waits = args.common.assume_converged_waits;
  prove_options.timeout_seconds = args.common.timeout;
  prove_options.reuse_templates = !args.no_reuse;
  prove_options.stream = !args.no_stream;
  prove_options.share_runs = !args.no_shared_runs;
  prove_options.mutual = args.mutual;
  prove_options.stop_at_first_unknown = args.stop_at_first_unknown;
  prove_options.cross_check_settings.enabled = !args.no_cross_check;
  prove_options.cross_check_settings.inputs = args.cross_check_inputs;
  prove_options.cross_check_settings.budget_share = args.cross_check_limit;
  prove_options.float_tolerance = tolerance;
  prove_options.input_range = input_range;
  if (args.max_terms > 0)
    prove_options.term_budget = args.max_terms;
  prove_options.cache = cache.get();
  prove_options.runs = runs.get();

  RunRequest request;
  request.options = *options;
  request.reports = args.common.reports;
  request.human = args.common.human_output();
  request.cache = cache.get();
  request.runs = runs.get();
  request.entry_cache = entries.get();
  session::Z3Settings z3;
  z3.enabled = !args.no_z3;
  z3.timeout_ms = args.z3_timeout_ms;
  z3.max_terms = args.max_terms;
  z3.max_memory_gib = args.common.max_memory_gib;
  // The rule set in effect names the proofs it made, in both caches: the text the rules were
  // built from, not the files as they are now.
  const std::string rules_identity = args.rules.identity(*library);
  if (cache)
    cache->set_rule_set(rules_identity);
  request.info.command = "prove";
  request.info.options = args.common.options_json();
  request.info.options["max_terms"] = prove_options.term_budget;
  request.info.options["reuse_templates"] = prove_options.reuse_templates;
  request.info.options["rules"] =
      args.rules.none ? nlohmann::json(nullptr) : nlohmann::json(args.rules.files);
  request.info.options["rule_seconds"] = args.rules.seconds;
  request.info.options["z3_timeout_ms"] =
      args.no_z3 ? nlohmann::json(nullptr) : nlohmann::json(args.z3_timeout_ms);
  request.info.options["cross_check"] = !args.no_cross_check;
  request.info.options["cross_check_inputs"] = args.cross_check_inputs;
  request.info.options["cross_check_limit"] = args.cross_check_limit;
  request.info.options["float_tolerance"] =
      tolerance ? nlohmann::json{{"rel", tolerance->rel}, {"abs", tolerance->abs}}
                : nlohmann::json(nullptr);
  if (input_range)
    request.info.options["input_range"] = {input_range->first, input_range->second};
  if (args.stop_at_first_unknown)
    request.info.options["stop_at_first_unknown"] = true;
  if (args.no_shared_runs)
    request.info.options["shared_runs"] = false;

  if (!args.common.batch.empty()) {
    auto manifest = load_manifest_selection(args.common, *options, request.info);
    if (!manifest)
      return kBadInput;
    request.entries = manifest->entries;
    // A kernel that several entries execute under one configuration runs once (issue 34).
    entry::BatchRuns batch_runs(request.entries, prove_options.run);
    if (prove_options.share_runs)
      prove_options.batch_runs = &batch_runs;
    request.runner =
        session::make_entry_runner(prove_options, z3, kernels, entries.get(), rules_identity);
    return run_entries(request);
  }
  request.runner =
      session::make_entry_runner(prove_options, z3, kernels, entries.get(), rules_identity);
  auto entry = single_pair(args);
  if (!entry)
    return kBadInput;
  request.single = true;
  request.info.manifest = args.pair;
  request.entries = {&*entry};
  return run_entries(request);
}

} // namespace

void register_prove_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ProveArgs>();
  CLI::App* cmd =
      app.add_subcommand("prove", "prove that two kernels compute the same outputs over the reals");
  args->common.add_to(*cmd);
  cmd->add_option("--pair", args->pair, "one pair given as a JSON entry object (manifest schema)");
  cmd->add_option("--cache", args->cache,
                  "cache folder: kernels executed once are not executed again (same PTX, launch "
                  "configuration and volta-eg build), templates proved once are not proved again");
  cmd->add_option("--max-terms", args->max_terms,
                  "new canonical-form terms per element; past it the element ends UNKNOWN "
                  "and the next one starts afresh (0: the default, 50,000,000)");
  cmd->add_flag("--no-reuse", args->no_reuse, "prove every element directly (no template reuse)");
  cmd->add_flag("--no-shared-runs", args->no_shared_runs,
                "execute every kernel of every entry, even one that another entry of the batch, "
                "or the other side of the pair, executes under the same configuration");
  cmd->add_flag("--no-stream", args->no_stream,
                "with all CTAs: run and prove the whole grid at once, not a group of CTAs at a "
                "time (more memory; the same verdicts)");
  cmd->add_option(
         "--z3-timeout", args->z3_timeout_ms,
         "milliseconds per Z3 fallback query (elements the canonical forms cannot decide; 0: none)")
      ->capture_default_str();
  cmd->add_flag("--no-z3", args->no_z3, "no Z3 fallback: such elements end UNKNOWN");
  cmd->add_flag("--mutual", args->mutual,
                "also require the reference to be defined wherever the optimized kernel is (two "
                "peers rather than a kernel and its specification)");
  cmd->add_flag("--stop-at-first-unknown", args->stop_at_first_unknown,
                "end an entry at its first element left UNKNOWN (the report names it, the "
                "subterms left undecided and what would decide them) instead of trying the rest");
  cmd->add_option("--check-array", args->check_arrays, "compare only these arrays (repeatable)");
  cmd->add_flag("--no-cross-check", args->no_cross_check,
                "do not run the kernels of an EQUIVALENT on the emulator afterwards (the "
                "cross-check that turns a proof the emulator contradicts into INCONSISTENT)");
  cmd->add_option("--cross-check-inputs", args->cross_check_inputs,
                  "input sets of the emulator cross-check: 1 (specials), 2 (and moderate) or 3 "
                  "(and wide); a time budget may run fewer")
      ->check(CLI::Range(1, 3))
      ->capture_default_str();
  cmd->add_option("--cross-check-limit", args->cross_check_limit,
                  "the emulator cross-check of an entry may cost this share of the proof's time, "
                  "at least 1 s for the first input set and 0.1 s for the others, decided "
                  "before it starts: a launch whose predicted cost does "
                  "not fit runs a sample of its CTAs, or is skipped; 0: no budget")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--float-tolerance", args->float_tolerance,
                  "rel=R,abs=A: an EQUIVALENT whose kernels store, on the emulator cross-check, "
                  "an element further apart than A + R * |reference| fails (exit status 1) while "
                  "staying EQUIVALENT over the reals; an entry's \"float_tolerance\" wins");
  cmd->add_option("--input-range", args->input_range,
                  "LO,HI: the range of the values of every input array whose manifest block gives "
                  "no \"range\", and of every symbolic parameter, for the bound on each kernel's "
                  "rounding error (docs/semantics.md, "
                  "\"A bound on the rounding error\")");
  args->rules.add_to(*cmd);
  args->ref.add_to(*cmd, "ref-", "reference kernel");
  args->opt.add_to(*cmd, "opt-", "optimized kernel");
  cmd->callback([args, &exit_code] { exit_code = run_prove(*args); });
}

} // namespace volta::cli
