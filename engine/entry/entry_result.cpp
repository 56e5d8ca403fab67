#include "engine/entry/entry_result.hpp"

#include <fmt/format.h>

#include "engine/exit_status.hpp"

namespace volta::entry {

std::string_view guard_name(Guard g) {
  switch (g) {
  case Guard::None:
    return "";
  case Guard::TimeLimit:
    return "time limit";
  case Guard::MemoryLimit:
    return "memory limit";
  case Guard::InstructionBudget:
    return "instruction budget";
  case Guard::TermBudget:
    return "term budget";
  case Guard::ENodeBudget:
    return "e-node budget";
  case Guard::SaturationTimeLimit:
    return "saturation time limit";
  case Guard::Interrupted:
    return "interrupted";
  }
  return "";
}

std::optional<Guard> guard_from(std::string_view name) {
  for (Guard g : kAllGuards) {
    if (guard_name(g) == name)
      return g;
  }
  return std::nullopt;
}

int exit_status(const std::vector<EntryResult>& results) {
  bool bad = false, mismatch = false, inconsistent = false;
  for (const auto& r : results) {
    bad |= r.bad_input;
    mismatch |= !r.matches();
    inconsistent |= r.verdict == Verdict::Inconsistent;
  }
  return volta::exit_status(bad, mismatch, inconsistent);
}

} // namespace volta::entry

namespace volta::entry {

std::string cta_scope(const std::vector<KernelSummary>& kernels) {
  auto part = [](const KernelSummary& k) { return fmt::format("CTA 0 of {}", k.launch_ctas); };
  std::vector<const KernelSummary*> partial;
  for (const KernelSummary& k : kernels) {
    if (!k.all_ctas && k.launch_ctas > 1)
      partial.push_back(&k);
  }
  if (partial.empty())
    return "";
  // One kernel, or both kernels over launches of one size: the scope needs no role.
  if (kernels.size() == 1 || (partial.size() == kernels.size() &&
                              partial.front()->launch_ctas == partial.back()->launch_ctas))
    return part(*partial.front());
  std::string text;
  for (const KernelSummary* k : partial)
    text += fmt::format("{}{}: {}", text.empty() ? "" : ", ", k->role, part(*k));
  return text;
}

void note_assumptions(const exec::RunOptions& run, EntryResult& result) {
  if (!run.converged_waits)
    return;
  result.assumptions.push_back("converged-waits");
  if (result.verdict == Verdict::Equivalent || result.verdict == Verdict::RaceFree)
    result.detail += "; assuming converged mbarrier waits (--assume-converged-waits)";
}

} // namespace volta::entry
