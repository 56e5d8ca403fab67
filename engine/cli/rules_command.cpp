// volta-eg rules check [FILE...]: validates rule files (the shipped library when no file is
// given): syntax and patterns, with located errors, then every rule's soundness
// (engine/rules_check/rule_check.hpp). Exit 0 when every rule is proved, 1 when one is unsound
// or could not be proved (such a rule is never used), 2 for a file that does not parse or build.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <memory>

#include "engine/cli/commands.hpp"
#include "engine/cli/rule_options.hpp"
#include "engine/diagnostic_reporter.hpp"
#include "engine/exit_status.hpp"
#include "engine/prove/shared_egraph.hpp"
#include "engine/rules_check/rule_check.hpp"

namespace volta::cli {

namespace {

struct RulesArgs {
  std::vector<std::string> files;
  int points = 64;
  unsigned z3_timeout_ms = 5'000;
  bool no_z3 = false;
  bool quiet = false;
};

int run_rules_check(const RulesArgs& args) {
  rules::RuleLibrary library;
  if (args.files.empty()) {
    library = rules::RuleLibrary::shipped();
  } else {
    bool bad = false;
    for (const auto& f : args.files) {
      for (const auto& d : library.add_file(f)) {
        DiagnosticReporter::standard().report(located(d));
        bad = true;
      }
    }
    if (bad)
      return kBadInput;
  }
  rules_check::RuleCheckOptions options;
  options.points = args.points;
  if (!args.no_z3)
    options.prover = rule_prover(args.z3_timeout_ms);
  const auto results = rules_check::check_rules(library, options);
  using S = rules_check::RuleCheckResult::Status;
  using P = rules_check::RuleCheckResult::Proof;
  std::map<S, size_t> counts;
  std::map<P, size_t> proofs;
  for (const auto& r : results) {
    ++counts[r.status];
    if (r.ok())
      ++proofs[r.proof];
    if (!r.ok() || !args.quiet)
      std::cout << rules_check::diagnostic(r) << "\n";
  }
  std::cout << fmt::format("{} rule{}: {} proved ({} by Z3, {} by canonical forms, {} by their "
                           "applier), {} unsound, {} not proved\n",
                           results.size(), results.size() == 1 ? "" : "s", counts[S::Proved],
                           proofs[P::Z3], proofs[P::CanonicalForms], proofs[P::Applier],
                           counts[S::Unsound], counts[S::Unproved]);
  return counts[S::Proved] == results.size() ? kSuccess : kMismatch;
}

} // namespace

void register_rules_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RulesArgs>();
  CLI::App* rules =
      app.add_subcommand("rules", "work with rule files (rules/library/*.rules, --rules FILE)");
  rules->require_subcommand(1);
  CLI::App* check = rules->add_subcommand(
      "check",
      "check rule files: syntax, patterns, and every rule's soundness (the shipped library "
      "when no file is given)");
  check->add_option("files", args->files, "rule files");
  check->add_option("--points", args->points, "evaluation points per rule instance")
      ->capture_default_str();
  check->add_option("--z3-timeout", args->z3_timeout_ms, "milliseconds per Z3 proof attempt")
      ->capture_default_str();
  check->add_flag("--no-z3", args->no_z3,
                  "no Z3 proofs: only rules the canonical forms prove pass");
  check->add_flag("-q,--quiet", args->quiet, "print only the rules that fail and the summary");
  check->callback([args, &exit_code] { exit_code = run_rules_check(*args); });
}

} // namespace volta::cli
