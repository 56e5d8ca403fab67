#include "engine/cli/rule_options.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <fmt/format.h>
#include <iostream>

#include "engine/content_hash.hpp"
#include "engine/diagnostic_reporter.hpp"
#include "engine/rules_check/rule_check.hpp"
#include "engine/smt/z3_fallback.hpp"

namespace volta::cli {

namespace {

// CLI11's PositiveNumber says "Value 0 not in range 0.000000 to 1.797693e+308" (written out in
// full): name what is expected instead.
CLI::Validator positive_number(const std::string& what) {
  return CLI::Validator(
      [what](const std::string& text) -> std::string {
        double value = 0;
        size_t used = 0;
        try {
          value = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != text.size() || !std::isfinite(value) || value <= 0)
          return fmt::format("expected a positive number of {}, got \"{}\"", what, text);
        return {};
      },
      what + " > 0");
}

} // namespace

void RuleFlags::add_to(CLI::App& cmd) {
  cmd.add_option("--rules", files,
                 "add the rules of this file to the shipped library (repeatable); every rule must "
                 "be proved sound first (`volta-eg rules check`), else the file is refused")
      ->check(CLI::ExistingFile);
  cmd.add_flag("--no-rules", none, "do not saturate with the rule library (canonical forms only)");
  cmd.add_option("--rule-seconds", seconds, "seconds per rule-library saturation of one element")
      ->capture_default_str()
      ->check(positive_number("seconds"));
  cmd.add_option("--rule-nodes", nodes,
                 "e-nodes one rule-library saturation may add to the shared e-graph")
      ->capture_default_str()
      ->check(positive_number("new e-nodes"));
}

prove::FallbackProver rule_prover(unsigned timeout_ms) {
  return smt::make_z3_fallback(timeout_ms);
}

std::optional<std::shared_ptr<const rules::RuleLibrary>> RuleFlags::load(unsigned z3_timeout_ms,
                                                                         bool use_z3) const {
  if (files.empty())
    return std::shared_ptr<const rules::RuleLibrary>();
  auto combined = std::make_shared<rules::RuleLibrary>(rules::RuleLibrary::shipped());
  rules::RuleLibrary own; // the user's rules alone, to check them
  bool bad = false;
  for (const auto& f : files) {
    auto errors = own.add_file(f);
    if (errors.empty())
      errors = combined->add_file(f);
    for (const auto& d : errors)
      DiagnosticReporter::standard().report(located(d));
    bad = bad || !errors.empty();
  }
  if (bad)
    return std::nullopt;
  rules_check::RuleCheckOptions check;
  if (use_z3)
    check.prover = rule_prover(z3_timeout_ms);
  // Only proved rules take part in proofs: an unsound rule, or one that could not be proved,
  // refuses the whole file (the shipped rules are proved by tests/rules_check).
  for (const auto& r : rules_check::check_rules(own, check)) {
    if (r.ok())
      continue;
    DiagnosticReporter::standard().error(rules_check::diagnostic(r));
    bad = true;
  }
  if (bad)
    return std::nullopt;
  return std::shared_ptr<const rules::RuleLibrary>(std::move(combined));
}

ptx::Diagnostic located(const rules::RuleDiagnostic& problem) {
  ptx::Diagnostic d;
  d.file = problem.where.file;
  d.where = {static_cast<uint32_t>(problem.where.line),
             static_cast<uint32_t>(problem.where.column)};
  d.message = problem.message;
  return d;
}

std::string RuleFlags::identity(const std::shared_ptr<const rules::RuleLibrary>& library) const {
  if (none)
    return "none";
  if (!library)
    return "shipped"; // embedded in the binary: the build's digest names it
  std::string text;
  for (const auto& source : library->sources())
    text += fmt::format("{} {}\n{} {}\n", source.name.size(), source.name, source.text.size(),
                        source.text);
  return "library " + cache_key(text);
}

void RuleFlags::apply(entry::ProveOptions& options,
                      const std::shared_ptr<const rules::RuleLibrary>& library) const {
  options.rules = library.get();
  options.saturate = !none;
  options.saturation.seconds = seconds;
  options.saturation.new_nodes = nodes;
}

} // namespace volta::cli
