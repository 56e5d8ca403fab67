// volta-eg explain: how one output element of one equivalence entry is decided — the e-graph's
// rewrite chain (rule applications, AC normalizations, canonical-form steps) that unified its
// two values, replayed by the explanation checker; or the Z3 outcome, the counterexample, or
// why it stays unknown.
//
//   volta-eg explain --batch M.json --filter 'softmax' --element out[5]
//   volta-eg explain --pair pair.json --element C[17]
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <sstream>

#include "engine/cli/batch_flags.hpp"
#include "engine/cli/commands.hpp"
#include "engine/cli/manifest_input.hpp"
#include "engine/cli/rule_options.hpp"
#include "engine/diagnostic_reporter.hpp"
#include "engine/entry/element_explanation.hpp"
#include "engine/exit_status.hpp"
#include "engine/prove/explanation_text.hpp"
#include "engine/report/printable_text.hpp"
#include "engine/report/result_line.hpp"
#include "engine/smt/z3_fallback.hpp"

namespace volta::cli {

namespace {

struct ExplainArgs {
  BatchFlags selection; // --batch, --filter
  std::string pair;
  std::string element;
  RuleFlags rules;
  unsigned z3_timeout_ms = 10'000;
  bool no_z3 = false;
  size_t steps = 60;
};

// Characters of each value shown (they can be megabytes long).
constexpr size_t kValueWidth = 400;

int run_explain(const ExplainArgs& args) {
  DiagnosticReporter& diagnostics = DiagnosticReporter::standard();
  if (args.selection.color != "auto" && args.selection.color != "always" &&
      args.selection.color != "never") {
    diagnostics.error(
        fmt::format("--color: expected auto, always or never, got \"{}\"", args.selection.color));
    return kBadInput;
  }
  if (args.selection.batch.empty() == args.pair.empty()) {
    diagnostics.error(
        "explain needs exactly one of --batch MANIFEST (with --filter) or --pair FILE");
    return kBadInput;
  }
  std::optional<launch::ManifestEntry> entry;
  if (!args.pair.empty()) {
    entry = read_pair_file(args.pair);
    if (!entry)
      return kBadInput;
  } else {
    auto options = args.selection.resolve();
    if (!options) {
      diagnostics.error(options.error());
      return kBadInput;
    }
    report::ReportInfo info;
    auto selection =
        load_manifest_selection(args.selection, *options, info, [](const launch::ManifestEntry& e) {
          return e.kind == launch::EntryKind::Equivalence;
        });
    if (!selection)
      return kBadInput;
    if (selection->entries.size() != 1) {
      std::string message =
          fmt::format("--filter selects {} equivalence entries; explain needs exactly one:",
                      selection->entries.size());
      for (const auto* e : selection->entries)
        message += "\n  " + report::printable(e->name);
      diagnostics.error(message);
      return kBadInput;
    }
    entry = *selection->entries[0];
  }
  auto library = args.rules.load(args.z3_timeout_ms, !args.no_z3);
  if (!library)
    return kBadInput;
  entry::ProveOptions options;
  args.rules.apply(options, *library);
  if (!args.no_z3)
    options.fallback = smt::make_z3_fallback(args.z3_timeout_ms);
  exec::KernelCache kernels;
  const entry::ElementExplanation x =
      entry::explain_element(*entry, kernels, options, args.element, args.steps);
  // With --quiet nothing goes to stdout: the exit status says the verdict.
  std::ostringstream out;
  const bool color = use_color(args.selection.color);
  const auto verdict_word = [&](Verdict v, bool good) {
    const std::string word(to_string(v));
    if (!color)
      return word;
    return std::string(report::verdict_color(good, v)) + word + report::kReset;
  };
  const int status = [&] {
    out << report::printable(entry->name) << "  " << args.element << "\n";
    if (x.stopped) {
      out << fmt::format("  the entry ends before its elements are compared: {}\n    {}\n",
                         verdict_word(x.stopped->verdict, false), x.stopped->detail);
      return x.stopped->bad_input ? kBadInput : kMismatch;
    }
    if (!x.note.empty() && x.reference_expr.empty()) {
      out << "  " << x.note << "\n";
      return kBadInput;
    }
    for (const auto& line :
         prove::describe_value_pair(x.reference_expr, x.optimized_expr, kValueWidth))
      out << "  " << line << "\n";
    const prove::ElementOutcome& o = x.outcome;
    switch (o.kind) {
    case prove::ElementOutcome::Kind::Equivalent:
      out << fmt::format("  {} ({})\n", verdict_word(Verdict::Equivalent, true), o.how());
      if (!o.rules_used.empty()) {
        std::string used;
        for (const auto& r : o.rules_used)
          used += (used.empty() ? "" : ", ") + r;
        out << "  rules that fired: " << used << "\n";
      }
      break;
    case prove::ElementOutcome::Kind::NotEquivalent: {
      out << "  " << verdict_word(Verdict::NotEquivalent, false) << "\n";
      if (o.counterexample) {
        const auto& c = *o.counterexample;
        std::string inputs;
        for (const auto& [k, v] : c.inputs)
          inputs += fmt::format("{}{}={}", inputs.empty() ? "" : ", ", k, v);
        out << fmt::format(
            "  counterexample: {} (every other input 0): {} (reference) vs {} (optimized){}\n",
            inputs.empty() ? "all inputs 0" : inputs, c.reference_value, c.optimized_value,
            c.confirmed ? ", confirmed by exact evaluation" : "");
      }
      break;
    }
    case prove::ElementOutcome::Kind::Unknown:
      out << "  " << verdict_word(Verdict::Unknown, false) << ": " << o.reason << "\n";
      break;
    }
    if (!x.steps.empty()) {
      out << fmt::format(
          "  rewrite chain from the reference to the optimized value ({} step{}{}):\n",
          x.total_steps, x.total_steps == 1 ? "" : "s",
          x.total_steps > x.steps.size() ? fmt::format(", the first {} shown", x.steps.size())
                                         : "");
      for (const auto& s : x.steps)
        out << "  " << s << "\n";
      out << "  checker: " << x.check << "\n";
    } else if (!x.note.empty()) {
      out << "  " << x.note << "\n";
    }
    return o.kind == prove::ElementOutcome::Kind::Equivalent ? kSuccess : kMismatch;
  }();
  if (!args.selection.quiet)
    std::cout << out.str();
  else if (status == kBadInput)
    std::cerr << out.str(); // an error is shown even with --quiet
  return status;
}

} // namespace

void register_explain_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ExplainArgs>();
  CLI::App* cmd = app.add_subcommand("explain", "show how one output element of an equivalence "
                                                "entry is decided (the e-graph's rewrite chain)");
  cmd->add_option("--batch", args->selection.batch,
                  "a manifest; --filter must select one equivalence entry");
  cmd->add_option("--filter", args->selection.filter, "regular expression on entry names");
  cmd->add_option("--pair", args->pair, "one pair given as a JSON entry object (manifest schema)");
  cmd->add_option("--element", args->element, "the output element, as ARRAY[INDEX]: O[5]")
      ->required();
  cmd->add_option("--steps", args->steps, "rewrite steps to print at most")->capture_default_str();
  cmd->add_option("--z3-timeout", args->z3_timeout_ms, "milliseconds for the Z3 fallback")
      ->capture_default_str();
  cmd->add_flag("--no-z3", args->no_z3, "no Z3 fallback");
  cmd->add_option("--color", args->selection.color,
                  "ANSI colors: auto (a terminal), always or never")
      ->capture_default_str();
  cmd->add_flag("-q,--quiet", args->selection.quiet,
                "print nothing on stdout (errors only): the exit status says the verdict");
  args->rules.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run_explain(*args); });
}

} // namespace volta::cli
