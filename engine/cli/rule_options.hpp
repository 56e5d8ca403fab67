// Rule-library flags shared by `volta-eg prove` and `volta-eg explain`: --rules FILE (checked
// for soundness before use), --no-rules, --rule-seconds.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/entry/equivalence_entry.hpp"
#include "ptx/diagnostic.hpp"
#include "rules/rule_library.hpp"

namespace CLI {
class App;
}

namespace volta::cli {

struct RuleFlags {
  std::vector<std::string> files;
  bool none = false;
  double seconds = prove::SaturationLimits{}.seconds;
  size_t nodes = prove::SaturationLimits{}.new_nodes;

  void add_to(CLI::App& cmd);
  // The library to saturate with (null: the shipped one), after checking every rule of the
  // given files; nullopt after printing located errors (bad syntax, rules unsound or not proved).
  std::optional<std::shared_ptr<const rules::RuleLibrary>> load(unsigned z3_timeout_ms,
                                                                bool use_z3) const;
  void apply(entry::ProveOptions& options,
             const std::shared_ptr<const rules::RuleLibrary>& library) const;
  // The rule set a run proves with, for the keys of the proof and entry caches: "none"
  // (--no-rules), "shipped", or "library <digest of the exact text of every rule source>".
  std::string identity(const std::shared_ptr<const rules::RuleLibrary>& library) const;
};

// The Z3 fallback as the rule checker's prover.
prove::FallbackProver rule_prover(unsigned timeout_ms);

// A rule file's problem as the tool's located diagnostic (for the reporter).
ptx::Diagnostic located(const rules::RuleDiagnostic& problem);

} // namespace volta::cli
